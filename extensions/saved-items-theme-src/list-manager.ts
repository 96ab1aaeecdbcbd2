import type { SavedItemsError } from "../shared/errors";
import { withListKey } from "../shared/list-key";
import type { BlockConfig } from "./block-config";
import { find, listen } from "./dom";
import { listLabel, namedLists, withBlockList, type NamedList } from "./named-lists";
import { callProxy } from "./proxy-client";

/**
 * The Saved items block's lists (its "Let shoppers manage lists" setting): a select to switch
 * list, and create, rename and delete. `show` shows another list in the block. Only for a
 * logged-in customer: a guest has one list, on the device. The lists are read once; each change
 * then applies the service's answer here, since /lists is found by search, which lags writes.
 */
export async function initListManager(config: BlockConfig, show: (context: string) => void): Promise<void> {
  const { root, status } = config;
  const panel = find(root, ".si-lists")!;
  const select = find<HTMLSelectElement>(panel, "select")!;
  const form = find<HTMLFormElement>(panel, "form")!;
  const input = find<HTMLInputElement>(form, "input")!;
  const blockList = config.context;
  let lists: NamedList[] = [];
  /** What the form does on submit: "create-list" or "rename-list". */
  let action = "";

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
  }

  function fail(error: SavedItemsError) {
    status.textContent = config.text(error.code === "PLAN_LIMIT_REACHED" ? "limit" : "error");
  }

  function openForm(next: string, value: string) {
    action = next;
    input.value = value;
    form.hidden = false;
    input.focus();
  }

  listen(select, "change", () => show(select.value));
  listen(find(panel, ".si-list-new")!, "click", () => openForm("create-list", ""));
  listen(find(panel, ".si-list-rename")!, "click", () => {
    const current = lists.find((list) => list.context === select.value);
    openForm("rename-list", current ? listLabel(config, current) : "");
  });
  listen(find(panel, ".si-list-cancel")!, "click", () => (form.hidden = true));
  listen(form, "submit", async (event) => {
    event.preventDefault();
    const context = action === "rename-list" ? select.value : undefined;
    try {
      // A create's key is picked here, once, so callProxy's retries repeat it and get the list it made.
      const body = withListKey(action, { name: input.value, context }) as object;
      const list = await callProxy<NamedList>(config, action as "create-list", body);
      form.hidden = true;
      apply(context || list.context, list);
    } catch (error) {
      fail(error as SavedItemsError);
    }
  });
  listen(find(panel, ".si-list-delete")!, "click", async () => {
    const context = select.value;
    if (!confirm(config.text("confirm"))) return;
    try {
      await callProxy(config, "delete-list", { context });
      apply(context);
    } catch (error) {
      fail(error as SavedItemsError);
    }
  });
  await namedLists(config).then((answer) => {
    lists = answer;
    render(blockList);
  }, fail);
}
