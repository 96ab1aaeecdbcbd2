import { getEnv } from "~/config/env.server";
import { ServiceError } from "~/lib/errors";
import { writeLog } from "~/lib/json-log";
import { registerProcessCache } from "~/lib/process-caches.server";

/** Entries per metaobject definition and shop the platform allows (METAOBJECT_ENTRY_CAP, default 1,000,000). */
export const metaobjectEntryCap = (): number => getEnv().METAOBJECT_ENTRY_CAP;

/** The MetaobjectUserErrorCode of a create past the cap ("The maximum number of metaobjects per shop has been exceeded"). */
const CAP_CODE = "MAX_OBJECTS_EXCEEDED";

/**
 * What a shopper's save answers at the cap: nothing a retry can fix until the merchant acts, and
 * nothing already saved is affected. The spec's codes have no storage code; this is the one for a
 * cap reached (docs/api.md).
 */
export const STORAGE_FULL_MESSAGE =
  "This shop's saved-items storage is full, so new saves are refused; everything already saved stays. " +
  "The store's owner must free room (the app's setup page says how)";

/** Whether the platform refused a write because its definition is at the cap. */
export function refusedAtCap(userErrors: readonly { code?: string | null }[] | null | undefined): boolean {
  return (userErrors ?? []).some((error) => error.code === CAP_CODE);
}

// The shops and definitions this process has warned about: the merchant learns of the cap from the
// setup page, and the log needs it once, not on every refused save.
const warned = new Set<string>();
registerProcessCache(() => warned.clear());

/** Logs at warn level, the first time this process sees it, that the shop's definition is at the cap. */
export function noteCapReached(shop: string, type: string): void {
  if (warned.has(`${shop} ${type}`)) return;
  warned.add(`${shop} ${type}`);
  writeLog("warn", "the shop's metaobject definition is at the platform's entry cap; creates are refused", {
    shop,
    type,
    cap: metaobjectEntryCap(),
  });
}

/** The refusal of a save at the cap (noted in the log). */
export function storageFullError(shop: string, type: string): ServiceError {
  noteCapReached(shop, type);
  return new ServiceError("PLAN_LIMIT_REACHED", STORAGE_FULL_MESSAGE);
}
