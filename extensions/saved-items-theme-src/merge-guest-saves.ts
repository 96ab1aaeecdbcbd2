import type { SavedItemsError } from "../shared/errors";
import type { BatchResult } from "../shared/wire";
import type { BlockConfig } from "./block-config";
import { guestSaves, withoutGuestSaves } from "./guest-saves";
import { callProxy } from "./proxy-client";
import { setSaved } from "./saved-state";
import { handleOf, requestBody, type ShopperItem } from "./shopper-item";

/** Starter's batch cap, so one chunk fits every plan that has /batch at all. */
const BATCH_SIZE = 10;

let merging: Promise<void> | undefined;

/** After login: the guest saves join the customer's lists, once per page however many blocks ask. */
export const mergeGuestSaves = (config: BlockConfig): Promise<void> => (merging ||= merge(config));

/**
 * Through /batch, or one /save at a time where the plan has no batch. A save the service already
 * has (DUPLICATE_SAVE) is merged; one it can never take (VALIDATION_ERROR) is dropped; any other
 * failure stops, and the rest stays for the next page load.
 */
async function merge(config: BlockConfig): Promise<void> {
  const todo = guestSaves();
  const handled: ShopperItem[] = [];
  let oneAtATime = false;
  for (let next = 0; next < todo.length;) {
    const chunk = todo.slice(next, next + (oneAtATime ? 1 : BATCH_SIZE));
    let outcomes: { ok: boolean; code?: string }[];
    try {
      outcomes = oneAtATime
        ? [await callProxy<unknown>(config, "save", requestBody(chunk[0]!)).then(() => ({ ok: true }))]
        : (
            await callProxy<BatchResult>(config, "batch", {
              operations: chunk.map((save) => requestBody(save, "save")),
            })
          ).results;
    } catch (error) {
      const code = (error as SavedItemsError).code;
      if (!oneAtATime && (code === "PLAN_LIMIT_REACHED" || code === "VALIDATION_ERROR")) {
        oneAtATime = true;
        continue;
      }
      if (!oneAtATime || !(code === "DUPLICATE_SAVE" || code === "VALIDATION_ERROR")) break;
      outcomes = [{ ok: false, code }];
    }
    outcomes.forEach(({ ok, code }, index) => {
      const save = chunk[index]!;
      const saved = ok || code === "DUPLICATE_SAVE";
      if (saved) setSaved(save.context, save.entityGid, handleOf(save.snapshot), true, save);
      if (saved || code === "VALIDATION_ERROR") handled.push(save);
    });
    next += chunk.length;
  }
  withoutGuestSaves(handled);
}
