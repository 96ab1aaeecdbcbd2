// "Save to…": loaded by the Save button or a card's hearts only when a shopper opens it (a chunk of its own).
import type { SavedItemsError } from "../shared/errors";
import type { BlockConfig } from "./block-config";
import { find, listen, setAttr } from "./dom";
import { listLabel, namedLists } from "./named-lists";
import { saveOrRemove } from "./save-or-remove";
import type { ShopperItem } from "./shopper-item";
import { announce } from "./status-message";

/**
 * Shows the shopper's lists as buttons in the picker beside the opener (both in `scope`); choosing
 * one saves the item there. `item` may have to ask the storefront for the product's id first.
 */
export async function openSaveTo(
  config: BlockConfig,
  scope: ParentNode,
  item: () => ShopperItem | Promise<ShopperItem>,
) {
  const opener = find(scope, ".si-save-to")!;
  const picker = find(scope, ".si-picker")!;
  const close = () => {
    picker.hidden = true;
    setAttr(opener, "aria-expanded", false);
  };
  try {
    const [lists, shopperItem] = await Promise.all([namedLists(config), item()]);
    picker.replaceChildren(
      ...lists.map((list) => {
        const choice = document.createElement("button");
        choice.type = "button";
        choice.className = "si-btn";
        choice.textContent = listLabel(config, list);
        listen(choice, "click", async () => {
          close();
          opener.focus();
          announce(config, await saveOrRemove(config, { ...shopperItem, context: list.context }, true), true);
        });
        return choice;
      }),
    );
    picker.hidden = false;
    setAttr(opener, "aria-expanded", true);
    find(picker, "button")!.focus();
  } catch (error) {
    close();
    config.status.textContent = config.text((error as SavedItemsError).code === "AUTH_REQUIRED" ? "login" : "error");
  }
}
