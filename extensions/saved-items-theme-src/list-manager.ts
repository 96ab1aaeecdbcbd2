import type { SavedItemsError } from "../shared/errors";
import { withListKey } from "../shared/list-key";
import type { BlockConfig } from "./block-config";
import { find, listen, setAttr } from "./dom";
import { listLabel, namedLists, withBlockList, type NamedList } from "./named-lists";
import { callProxy } from "./proxy-client";
import { keepLink } from "./share-control";

/**
 * What a refused create-list tells the shopper, with the next step. Both limits answer
 * PLAN_LIMIT_REACHED and say their number in the message (docs/api.md): the plan's ("The Free plan
 * allows 2 lists made with create-list; …") and the bound on stored lists ("You can have at most 52
 * lists, counting lists deleted …"), which deleting does not lift at once.
 */
export function limitMessage(config: BlockConfig, error: SavedItemsError): string {
  const [, count = ""] = /(\d+) lists/.exec(error.message) || [];
  return config.text(/counting/.test(error.message) ? "limit-kept" : "limit").replace("{n}", count);
}

/**
 * The Saved items block's lists (its "Let shoppers manage lists" setting): a select to switch
 * list; a form, in its own row, to create or rename one; and a confirmation inside the block before
 * a delete. `show` shows another list in the block. Only for a logged-in customer: a guest has one
 * list, on the device. The lists are read once; each change then applies the service's answer
 * here, since /lists is found by search, which lags writes.
 */
export async function initListManager(config: BlockConfig, show: (context: string) => void): Promise<void> {
  const { root, status } = config;
  const panel = find(root, ".si-lists")!;
  const select = find<HTMLSelectElement>(panel, "select")!;
  const form = find<HTMLFormElement>(panel, "form")!;
  const input = find<HTMLInputElement>(form, "input")!;
  const formError = find(form, ".si-form-error")!;
  const confirmBox = find(panel, ".si-confirm")!;
  const blockList = config.context;
  let lists: NamedList[] = [];
  /** What the form does on submit: "create-list" or "rename-list"; and the button that opened it. */
  let action = "";
  let opener = find(panel, ".si-list-new")!;
  const button = (name: string) => find<HTMLButtonElement>(panel, `.si-list-${name}`)!;
  /** The list picked, by its label; "" while the lists could not be read (the picker is then empty). */
  const currentLabel = () => {
    const list = lists.find((entry) => entry.context === select.value);
    return list ? listLabel(config, list) : "";
  };

  function render(selected: string) {
    select.replaceChildren(
      ...lists.map((list) => {
        const option = new Option(`${listLabel(config, list)} (${list.itemCount})`, list.context);
        option.selected = list.context === selected;
        return option;
      }),
    );
  }

  /** Applies a change's answer: `list` replaces the entry of `context` (or is new), undefined deletes it. */
  function apply(context: string, list?: NamedList) {
    // A renamed list keeps its place; a new one goes first, as /lists orders them (newest first).
    const at = lists.findIndex((entry) => entry.context === context);
    const others = lists.filter((entry) => entry.context !== context);
    if (list) others.splice(Math.max(at, 0), 0, list);
    lists = withBlockList(config, others);
    const selected = list ? list.context : blockList;
    render(selected);
    show(selected);
    status.textContent = config.text("done");
    select.focus();
  }

  function showError(text: string) {
    formError.textContent = text;
    setAttr(input, "aria-invalid", !!text);
  }

  /** Opens or closes a panel (the form, the confirmation); closing one gives focus back to its opener. */
  function toggle(box: HTMLElement, from: HTMLElement, open: boolean) {
    box.hidden = !open;
    setAttr(from, "aria-expanded", open);
    if (!open) from.focus();
  }

  function openForm(next: string, from: HTMLElement, value: string) {
    if (!form.hidden) toggle(form, opener, false);
    if (!confirmBox.hidden) toggle(confirmBox, button("delete"), false);
    action = next;
    opener = from;
    input.value = value;
    showError("");
    toggle(form, from, true);
    input.focus();
  }

  listen(select, "change", () => show(select.value));
  listen(button("new"), "click", () => openForm("create-list", button("new"), ""));
  listen(button("rename"), "click", () => openForm("rename-list", button("rename"), currentLabel()));
  listen(button("cancel"), "click", () => toggle(form, opener, false));
  listen(form, "submit", async (event) => {
    event.preventDefault();
    const name = input.value.trim();
    if (!name) return showError(config.text("name-required"));
    const context = action === "rename-list" ? select.value : undefined;
    try {
      // A create's key is picked here, once, so callProxy's retries repeat it and get the list it made.
      const body = withListKey(action, { name, context }) as object;
      const list = await callProxy<NamedList>(config, action as "create-list", body);
      form.hidden = true;
      setAttr(opener, "aria-expanded", false);
      apply(context || list.context, list);
    } catch (error) {
      const { code } = error as SavedItemsError;
      showError(
        code === "PLAN_LIMIT_REACHED"
          ? limitMessage(config, error as SavedItemsError)
          : config.text(code === "VALIDATION_ERROR" ? "name-invalid" : "error"),
      );
      input.focus();
    }
  });

  // Delete asks inside the block, focus on Cancel; Escape or Cancel closes it, focus back on Delete.
  listen(button("delete"), "click", () => {
    if (!currentLabel()) return;
    if (!form.hidden) toggle(form, opener, false);
    find(confirmBox, "p")!.textContent = config.text("confirm").replace("{name}", currentLabel());
    toggle(confirmBox, button("delete"), true);
    button("keep").focus();
  });
  listen(button("keep"), "click", () => toggle(confirmBox, button("delete"), false));
  listen(panel, "keydown", (event) => {
    if ((event as KeyboardEvent).key !== "Escape") return;
    if (!confirmBox.hidden) toggle(confirmBox, button("delete"), false);
    else if (!form.hidden) toggle(form, opener, false);
  });
  listen(button("confirm"), "click", async () => {
    const context = select.value;
    try {
      await callProxy(config, "delete-list", { context });
      // The delete cleared the list's share link.
      keepLink(config, context, undefined);
      confirmBox.hidden = true;
      setAttr(button("delete"), "aria-expanded", false);
      apply(context);
    } catch {
      status.textContent = config.text("error");
    }
  });
  await namedLists(config).then(
    (answer) => {
      lists = answer;
      render(blockList);
    },
    () => (status.textContent = config.text("error")),
  );
}
