// "Save to…": loaded by the Save button only when a shopper opens it (a chunk of its own).
import type { SavedItemsError } from "../shared/errors";
import type { BlockConfig } from "./block-config";
import { find, listen, setAttr } from "./dom";
import { listLabel, namedLists } from "./named-lists";
import { saveOrRemove } from "./save-or-remove";
import type { ShopperItem } from "./shopper-item";
import { announce } from "./status-message";

/** Shows the shopper's lists in `picker` as buttons; choosing one saves `item` there. */
export async function openSaveTo(config: BlockConfig, item: ShopperItem, opener: HTMLElement, picker: HTMLElement) {
  const close = () => {
    picker.hidden = true;
    setAttr(opener, "aria-expanded", false);
  };
  try {
    const lists = await namedLists(config);
    picker.replaceChildren(
      ...lists.map((list) => {
        const choice = document.createElement("button");
        choice.type = "button";
        choice.className = "si-btn";
        choice.textContent = listLabel(config, list);
        listen(choice, "click", async () => {
          close();
          opener.focus();
          announce(config, await saveOrRemove(config, { ...item, context: list.context }, true), true);
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
