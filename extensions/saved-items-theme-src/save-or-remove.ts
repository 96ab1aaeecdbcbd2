import type { SavedItemsError } from "../shared/errors";
import type { BlockConfig } from "./block-config";
import { pausedBy } from "./budget-pause";
import { setGuestSave } from "./guest-saves";
import { callProxy } from "./proxy-client";
import { savedValue, setSaved } from "./saved-state";
import { handleOf, requestBody, type ShopperItem } from "./shopper-item";

/**
 * "busy": a change of the same item is still on its way, so this click did nothing. "paused": the
 * shop's budget (or the shopper's share) is spent, so nothing changed. "already": the item was
 * saved already (elsewhere, since this page read the list), and stays so.
 */
export type Outcome = "ok" | "already" | "guest" | "error" | "busy" | "paused";

const pending: Record<string, true> = {};

/**
 * Optimistic: the state flips at once; /save or /remove (idempotent, so safe to retry) confirms
 * it, or it rolls back. An answer that contradicts what this page believed (DUPLICATE_SAVE on a
 * save, ITEM_NOT_FOUND on a remove) confirms the new state all the same, and corrects the stored
 * one; a save then says it found the item saved ("already"), not that it saved it. A guest's
 * choice is kept as a guest save: without a request when the page was rendered for a guest (the
 * app could only answer AUTH_REQUIRED), on that answer when the customer has logged out since.
 */
export async function saveOrRemove(config: BlockConfig, item: ShopperItem, on: boolean): Promise<Outcome> {
  const { context, entityGid } = item;
  const key = `${context} ${entityGid}`;
  if (pending[key]) return "busy";
  pending[key] = true;
  const before = savedValue(context, entityGid);
  const after = on ? handleOf(item.snapshot) : undefined;
  item.source = config.source;
  setSaved(context, entityGid, after, false, item);
  const error = config.customer
    ? await callProxy(config, on ? "save" : "remove", requestBody(item)).then(
        () => undefined,
        (refusal: SavedItemsError) => refusal,
      )
    : ({ code: "AUTH_REQUIRED" } as SavedItemsError);
  const code = error && error.code;
  delete pending[key];
  if (code === "AUTH_REQUIRED") {
    setGuestSave(item, on);
    return "guest";
  }
  if (code && code !== (on ? "DUPLICATE_SAVE" : "ITEM_NOT_FOUND")) {
    setSaved(context, entityGid, before, true, item);
    return pausedBy(error!, false) ? "paused" : "error";
  }
  setSaved(context, entityGid, after, true, item);
  return code === "DUPLICATE_SAVE" ? "already" : "ok";
}
