import type { SavedItemsError } from "../shared/errors";
import type { BlockConfig } from "./block-config";
import { pausedBy } from "./budget-pause";
import { all, data, find, fromTemplate, listen, setAttr } from "./dom";
import { guestSaves } from "./guest-saves";
import { mergeGuestSaves } from "./merge-guest-saves";
import { initListManager } from "./list-manager";
import { fillCard } from "./product-card";
import { listPage } from "./proxy-client";
import { saveOrRemove } from "./save-or-remove";
import { keepShown, setPaused, shownRows, subscribe } from "./saved-state";
import { initShareControl } from "./share-control";
import type { ShopperItem } from "./shopper-item";
import { announce, showPause } from "./status-message";

/**
 * The saved-items block: the customer's list a page at a time from /list ("Load more" follows the
 * cursor), read from the server on every view since it shows titles, images and prices, which the
 * stored state does not keep. A guest sees the guest saves and a login link. With data-lists, a
 * customer can switch to another of their lists, and create, rename and delete lists; with
 * data-share, make, copy and revoke a share link of the list shown. While the
 * shop's budget (or the customer's share) is spent, it shows the rows it last read, from the
 * device, read-only, and reads again on the next page view or at the reset time.
 */
export function initSavedItemsList(config: BlockConfig): Promise<void> {
  const { root } = config;
  let context = config.context;
  const list = find(root, ".si-items")!;
  const more = find<HTMLButtonElement>(root, ".si-more")!;
  const pageSize = data(root, "page-size") || "12";
  let cursor: string | null = null;

  const rows = () => all(list, "li:not([hidden])");
  function refresh() {
    setAttr(root, "data-state", rows().length ? "ready" : "empty");
    more.hidden = !cursor;
    pause();
  }

  /** A row from the block's template, as a product card. */
  function addRow(item: ShopperItem) {
    const row = fromTemplate(root);
    const remove = find(row, ".si-remove")!;
    const title = fillCard(row, item, config);
    setAttr(remove, "aria-label", `${config.text("remove")}: ${title}`);
    listen(remove, "click", async () => {
      // The row goes at once, and focus moves to the next remove button (or the block).
      const shown = rows();
      const at = shown.indexOf(row);
      const neighbour = shown[at + 1] || shown[at - 1];
      row.hidden = true;
      refresh();
      ((neighbour && find(neighbour, ".si-remove")) || root).focus();
      const outcome = await saveOrRemove(config, item, false);
      announce(config, outcome, false);
      if (outcome === "error") row.hidden = false;
      else if (outcome !== "busy") row.remove();
      refresh();
    });
    list.append(row);
  }

  function showGuestSaves() {
    cursor = null;
    for (const save of guestSaves()) if (save.context === context) addRow(save);
    refresh();
    if (rows().length) announce(config, "guest", true);
  }

  async function loadPage(): Promise<void> {
    if (!config.customer) return showGuestSaves();
    if (!rows().length) setAttr(root, "data-state", "loading");
    more.disabled = true;
    try {
      await mergeGuestSaves(config);
      const reading = context;
      const page = await listPage(config, pageSize, cursor, reading);
      // Switched to another list meanwhile: that list's read shows instead.
      if (reading !== context) return;
      const items = page.items.map((item) => ({ ...item, context }) as ShopperItem);
      setPaused(undefined);
      keepShown(context, items, !!cursor);
      items.forEach(addRow);
      cursor = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
      refresh();
    } catch (error) {
      if ((error as SavedItemsError).code === "AUTH_REQUIRED") showGuestSaves();
      else if (pausedBy(error as SavedItemsError, true, reread)) {
        cursor = null;
        list.replaceChildren();
        shownRows(context).forEach(addRow);
        refresh();
      } else setAttr(root, "data-state", "error");
    } finally {
      more.disabled = false;
    }
  }

  const showShare = config.customer && data(root, "share") ? initShareControl(config) : undefined;

  /** The list shown, from its first page. */
  function reread() {
    cursor = null;
    list.replaceChildren();
    return loadPage();
  }

  /** Another of the customer's lists; `has`: one they have (none is shared before it exists). */
  function show(next: string, has: boolean) {
    context = next;
    if (showShare) showShare(next, has);
    return reread();
  }

  // Read-only while paused: every control of the block, its rows' too, and the status says why.
  const pause = () => showPause(config, all(root, "button, select"), true);
  subscribe(pause);
  listen(more, "click", loadPage);
  listen(find(root, ".si-retry")!, "click", loadPage);
  // The list manager picks the list to open on first, so the block reads only that one.
  return config.customer && data(root, "lists") ? initListManager(config, show) : loadPage();
}
