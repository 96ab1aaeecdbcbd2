import type { SavedItemsError } from "../shared/errors";
import { setPaused } from "./saved-state";

/** The reset time that docs/api.md says the budget's and the share's refusals give, in their message. */
const RESET = /resets at (\d{4}-\d\d-\d\dT[\d:.]+Z)/;

/**
 * Pauses saving when `error` says the shop's monthly budget, or this customer's share of it, is
 * spent; false for any other failure. The envelope does not tell that PLAN_LIMIT_REACHED from the
 * bounds of a save (a full list, too many lists, a batch, the storage): those refuse writes only,
 * so a read's (`read`) is the budget's; a write's counts only when its message gives the reset
 * time, and is otherwise taken as a bound of that save, which pauses nothing (the next read
 * tells). `retry` runs once at the reset time, if the device's clock still has it ahead: a
 * refusal then (a clock ahead of the service's) waits for the next page view, never loops.
 */
export function pausedBy(error: SavedItemsError, read: boolean, retry?: () => void): boolean {
  const reset = RESET.exec(error.message);
  if (error.code !== "PLAN_LIMIT_REACHED" || !(reset || read)) return false;
  const until = reset ? reset[1]! : "";
  setPaused(until);
  const wait = Date.parse(until) - Date.now();
  // setTimeout fires at once past 2^31 - 1 ms (24.8 days): a later reset is retried then, and again.
  if (retry && wait > 0) setTimeout(retry, Math.min(wait, 2 ** 31 - 1));
  return true;
}
