import type { SavedItemsError } from "../shared/errors";
import type { BlockConfig } from "./block-config";
import { all, data } from "./dom";
import { guestRows, guestSavedMap } from "./guest-saves";
import { pausedBy } from "./budget-pause";
import { mergeGuestSaves } from "./merge-guest-saves";
import { listPage } from "./proxy-client";
import {
  beginRead,
  completeRead,
  pausedUntil,
  replaceList,
  setPaused,
  storedList,
  type SavedMap,
  type SavedRows,
} from "./saved-state";
import { savedHandle, type ShopperItem } from "./shopper-item";

/** 10 pages of 100: the most a page reads, so a huge list cannot stall it. */
const MAX_PAGES = 10;

const loads: Record<string, Promise<void>> = {};

/**
 * The saved state of the block's list, shared by every button and heart of the page. A customer's
 * comes from the stored state at once (before any request), then from one paged /list read only
 * when nothing fresh is stored, or while saving is paused (each page view asks once whether the
 * shop serves again); a guest's is the guest saves. A block with data-rows (the cart's)
 * keeps each item's snapshot in the state too, to list them without reading on every page.
 */
export function loadSavedState(config: BlockConfig): Promise<void> {
  const { context } = config;
  return (loads[context] ||= config.customer ? loadCustomerState(config) : Promise.resolve(showGuestSaves(context)));
}

const showGuestSaves = (context: string) => replaceList(context, guestSavedMap(context), guestRows(context));

async function loadCustomerState(config: BlockConfig): Promise<void> {
  const stored = storedList(config.context);
  const keepRows = !!data(config.root, "rows");
  if (stored) replaceList(config.context, stored.items, stored.rows);
  await mergeGuestSaves(config);
  if (!(stored && stored.fresh && (stored.rows || !keepRows)) || pausedUntil() !== undefined)
    await readFromServer(config, keepRows);
}

/**
 * Another list a block of this page shows (the cart block's, beside buttons and hearts) and that has
 * no fresh stored state, so its read is due too: the app reads it with this one in one platform
 * request (decision 0015), and only then (decision 0025): a page without it asks for one list.
 */
function companionOnPage(context: string): string | undefined {
  for (const root of all(document, "[data-si]")) {
    const other = data(root, "context");
    if (other && other !== context && !storedList(other)?.fresh) return other;
  }
  return undefined;
}

async function readFromServer(config: BlockConfig, keepRows: boolean): Promise<void> {
  const { context } = config;
  const readAt = Date.now();
  const items: SavedMap = {};
  const rows: SavedRows | undefined = keepRows ? {} : undefined;
  beginRead(context);
  try {
    let cursor: string | null = null;
    for (let page = 1; page <= MAX_PAGES; page += 1) {
      const result = await listPage(config, "100", cursor, context, cursor ? undefined : companionOnPage(context));
      for (const item of result.items) {
        items[item.entityGid] = savedHandle(item);
        const { entityType, entityGid, snapshot, product } = item;
        if (rows) rows[entityGid] = { context, entityType, entityGid, snapshot, product } as ShopperItem;
      }
      if (!result.pageInfo.hasNextPage) break;
      cursor = result.pageInfo.endCursor;
    }
  } catch (error) {
    // Logged out since the page was rendered: this shopper's state is the guest saves. Any other
    // failure (a spent budget too) keeps what was stored, stale or not, for the next page to read again.
    if ((error as SavedItemsError).code === "AUTH_REQUIRED") showGuestSaves(context);
    pausedBy(error as SavedItemsError, true, () => readFromServer(config, keepRows));
    return;
  }
  setPaused(undefined);
  completeRead(context, items, readAt, rows);
}
