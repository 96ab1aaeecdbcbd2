import type { SavedItemsError } from "../shared/errors";
import { withListKey } from "../shared/list-key";
import type { BlockConfig } from "./block-config";
import { find, listen, setAttr } from "./dom";
import { afterChange, listLabel, openingList, shopperLists, withBlockList, type NamedList } from "./named-lists";
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
 * a delete. `show` shows another list in the block (`has`: one the shopper has, not the empty
 * default list of a shopper with none). Only for a logged-in customer: a guest has one list, on
 * the device. The lists are read once, then the list to open on is shown; each change then applies
 * the service's answer here, since /lists is found by search, which lags writes.
 *
 * A panel acts on the list it named when it opened, never on whatever the picker holds when its
 * button is pressed, and a switch closes it: its text always names the list its button acts on.
 */
export async function initListManager(
  config: BlockConfig,
  show: (context: string, has: boolean) => Promise<void>,
): Promise<void> {
  const panel = find(config.root, ".si-lists")!;
  const select = find<HTMLSelectElement>(panel, "select")!;
  const form = find<HTMLFormElement>(panel, "form")!;
  const input = find<HTMLInputElement>(form, "input")!;
  const formError = find(form, ".si-form-error")!;
  const nameLabel = find(form, "label")!;
  const newName = nameLabel.textContent;
  const confirmBox = find(panel, ".si-confirm")!;
  // What a change did is said under the manager (its own live region), not under a long list.
  const said = find(panel, ".si-lists-said")!;
  const say = (text: string) => (said.textContent = text);
  let lists: NamedList[] = [];
  /** The open panel: the list it acts on ("" for a new list), and the button that opened it. */
  let armed: { context: string; box: HTMLElement; opener: HTMLElement } | undefined;
  const button = (name: string) => find<HTMLButtonElement>(panel, `.si-list-${name}`)!;
  const has = (context: string) => lists.some((list) => list.context === context);
  const label = (context: string) =>
    listLabel(config, lists.find((list) => list.context === context) || { context, name: null, itemCount: 0 });

  /** The picker's options: the shopper's lists, or the block's own (empty) for a shopper with none. */
  function render() {
    select.replaceChildren(
      ...(lists.length ? lists : withBlockList(config, [])).map(
        (list) => new Option(`${listLabel(config, list)} (${list.itemCount})`, list.context),
      ),
    );
  }

  /** Shows `context` in the picker and the block; Rename and Delete only on a list the shopper has. */
  function pick(context: string) {
    select.value = context;
    button("rename").hidden = button("delete").hidden = !has(context);
    return show(context, has(context));
  }

  /** Applies a change's answer (see afterChange). */
  function apply(context: string, list?: NamedList) {
    const shown = select.value;
    const next = afterChange(config, lists, shown, context, list);
    lists = next.lists;
    render();
    if (next.shown === shown) select.value = shown;
    else void pick(next.shown);
    say(config.text("done"));
  }

  function showError(text: string) {
    formError.textContent = text;
    setAttr(input, "aria-invalid", !!text);
  }

  /** Opens `box` to act on `context`, closing any other panel. */
  function arm(context: string, box: HTMLElement, opener: HTMLElement) {
    disarm(false);
    armed = { context, box, opener };
    box.hidden = false;
    setAttr(opener, "aria-expanded", true);
  }

  /** Closes the open panel; `refocus` gives focus back to its opener (not when the picker moved on). */
  function disarm(refocus: boolean) {
    if (!armed) return;
    const { box, opener } = armed;
    armed = undefined;
    box.hidden = true;
    setAttr(opener, "aria-expanded", false);
    if (refocus) opener.focus();
  }

  /** The form, to rename `context` (its label names it) or, with "", to make a new list. */
  function openForm(context: string, from: HTMLElement) {
    arm(context, form, from);
    nameLabel.textContent = context ? config.text("rename-as").replace("{name}", label(context)) : newName;
    input.value = context && label(context);
    showError("");
    input.focus();
  }

  listen(select, "change", () => {
    // A rename or delete panel names the list it opened on: another list shown, it goes.
    if (armed && armed.context) disarm(false);
    say("");
    void pick(select.value);
  });
  listen(button("new"), "click", () => openForm("", button("new")));
  listen(button("rename"), "click", () => openForm(select.value, button("rename")));
  listen(button("cancel"), "click", () => disarm(true));
  listen(form, "submit", async (event) => {
    event.preventDefault();
    const mine = armed;
    if (!mine) return;
    const name = input.value.trim();
    if (!name) return showError(config.text("name-required"));
    const action = mine.context ? "rename-list" : "create-list";
    try {
      // A create's key is picked here, once, so callProxy's retries repeat it and get the list it made.
      const body = withListKey(action, { name, context: mine.context || undefined }) as object;
      const list = await callProxy<NamedList>(config, action, body);
      apply(mine.context || list.context, list);
      if (armed === mine) {
        disarm(false);
        select.focus();
      }
    } catch (error) {
      const { code } = error as SavedItemsError;
      const text =
        code === "PLAN_LIMIT_REACHED"
          ? limitMessage(config, error as SavedItemsError)
          : config.text(code === "VALIDATION_ERROR" ? "name-invalid" : "error");
      // Said in the form while it is still open on that list, else under the manager.
      if (armed !== mine) say(text);
      else {
        showError(text);
        input.focus();
      }
    }
  });

  // Delete asks inside the block, focus on Cancel; Escape or Cancel closes it, focus back on Delete.
  listen(button("delete"), "click", () => {
    arm(select.value, confirmBox, button("delete"));
    find(confirmBox, "p")!.textContent = config.text("confirm").replace("{name}", label(select.value));
    button("keep").focus();
  });
  listen(button("keep"), "click", () => disarm(true));
  listen(panel, "keydown", (event) => {
    if ((event as KeyboardEvent).key === "Escape") disarm(true);
  });
  listen(button("confirm"), "click", async () => {
    const context = armed && armed.context;
    if (!context) return;
    // Closed before the answer: a second click, a switch or a failure finds nothing armed.
    disarm(true);
    try {
      await callProxy(config, "delete-list", { context });
    } catch (error) {
      // NOT_FOUND: gone already (a retry after a lost answer, another device): what was asked is done.
      if ((error as SavedItemsError).code !== "NOT_FOUND")
        return void say(config.text("delete-failed").replace("{name}", label(context)));
    }
    // The delete cleared the list's share link.
    keepLink(config, context, undefined);
    apply(context);
    select.focus();
  });
  try {
    lists = await shopperLists(config);
  } catch {
    // Lists unknown: the block shows its own, as without the manager, and nothing to rename or delete.
    say(config.text("error"));
    button("rename").hidden = button("delete").hidden = true;
    return show(config.context, true);
  }
  render();
  await pick(openingList(config, lists));
}
