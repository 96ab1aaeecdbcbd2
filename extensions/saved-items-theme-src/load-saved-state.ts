import type { SavedItemsError } from "../shared/errors";
import type { BlockConfig } from "./block-config";
import { guestSavedMap } from "./guest-saves";
import { mergeGuestSaves } from "./merge-guest-saves";
import { listPage } from "./proxy-client";
import { beginRead, completeRead, replaceList, storedList, type SavedMap } from "./saved-state";
import { handleOf } from "./shopper-item";

/** 10 pages of 100: the most a page reads, so a huge list cannot stall it. */
const MAX_PAGES = 10;

const loads: Record<string, Promise<void>> = {};

/**
 * The saved state of the block's list, shared by every button and heart of the page. A customer's
 * comes from the stored state at once (before any request), then from one paged /list read only
 * when nothing fresh is stored; a guest's is the guest saves.
 */
export function loadSavedState(config: BlockConfig): Promise<void> {
  const { context } = config;
  return (loads[context] ||= config.customer
    ? loadCustomerState(config)
    : Promise.resolve(replaceList(context, guestSavedMap(context))));
}

async function loadCustomerState(config: BlockConfig): Promise<void> {
  const stored = storedList(config.context);
  if (stored) replaceList(config.context, stored.items);
  await mergeGuestSaves(config);
  if (!(stored && stored.fresh)) await readFromServer(config);
}

async function readFromServer(config: BlockConfig): Promise<void> {
  const { context } = config;
  const readAt = Date.now();
  const items: SavedMap = {};
  beginRead(context);
  try {
    let cursor: string | null = null;
    for (let page = 1; page <= MAX_PAGES; page += 1) {
      const result = await listPage(config, "100", cursor);
      for (const item of result.items) items[item.entityGid] = handleOf(item.snapshot);
      if (!result.pageInfo.hasNextPage) break;
      cursor = result.pageInfo.endCursor;
    }
  } catch (error) {
    // Logged out since the page was rendered: this shopper's state is the guest saves. Any other
    // failure keeps what was stored, stale or not, for the next page to read again.
    if ((error as SavedItemsError).code === "AUTH_REQUIRED") replaceList(context, guestSavedMap(context));
    return;
  }
  completeRead(context, items, readAt);
}
