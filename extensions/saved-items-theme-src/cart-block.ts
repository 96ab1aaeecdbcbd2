import type { BlockConfig } from "./block-config";
import { all, data, find, fromTemplate, listen } from "./dom";
import { loadSavedState } from "./load-saved-state";
import { fillCard } from "./product-card";
import { saveOrRemove } from "./save-or-remove";
import { savedRows, subscribe } from "./saved-state";
import { fitSnapshot, type ShopperItem } from "./shopper-item";
import { announce } from "./status-message";

/** A line as the storefront's Ajax cart API answers it (the fields used here). */
interface CartLine {
  key: string;
  variant_id: number;
  quantity: number;
}

/**
 * The cart block: "Save for later" on each cart line and the saved-for-later list with "Move to
 * cart". Nothing is ever in neither place: a line leaves the cart only once its save was
 * acknowledged (or kept as a guest save), and a saved item is removed only once /cart/add.js took it.
 * The saved list comes from the saved state with rows (data-rows): one read per session, not per page.
 */
export function initCartBlock(config: BlockConfig): Promise<void> {
  const { root, context } = config;
  const lines = find(root, ".si-lines")!;
  const saved = find(root, ".si-saved")!;

  /** The storefront's Ajax cart API; a refusal (422 sold out, 404 no such variant) rejects. */
  async function cart<T>(path: string, body: object): Promise<T> {
    const response = await fetch(`${config.storefrontRoot}cart/${path}.js`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(String(response.status));
    // Themes listen for this to refresh their own cart (count, drawer, totals).
    document.dispatchEvent(new CustomEvent("saved-items:cart-change"));
    return response.json();
  }

  function refresh() {
    root.setAttribute("data-state", saved.children.length ? "ready" : "empty");
    root.toggleAttribute("data-cart-empty", !lines.children.length);
  }

  function bindLine(row: HTMLElement) {
    const button = find<HTMLButtonElement>(row, "button")!;
    listen(button, "click", async () => {
      button.disabled = true;
      const quantity = Number(data(row, "quantity")) || 1;
      const outcome = await saveOrRemove(
        config,
        {
          context,
          entityType: "variant",
          entityGid: `gid://shopify/ProductVariant/${data(row, "variant-id")}`,
          snapshot: fitSnapshot({
            title: data(row, "title"),
            url: data(row, "url"),
            image: data(row, "image"),
            price: data(row, "price"),
            handle: data(row, "handle"),
            quantity,
          }),
        },
        true,
      );
      let done = outcome === "ok" || outcome === "guest";
      if (done)
        done = await cart("change", { id: data(row, "key"), quantity: 0 }).then(
          () => true,
          () => false,
        );
      announce(config, done ? outcome : "error", true);
      if (done) row.remove();
      else button.disabled = false;
      refresh();
    });
  }

  /** The line /cart/add.js answered: its row updated, or a new row from the lines' template. */
  function showLine(line: CartLine, item: ShopperItem) {
    let row = all(lines, "li").find((li) => data(li, "key") === line.key);
    if (!row) {
      const snapshot = item.snapshot || {};
      row = fromTemplate(root, ".si-line-template");
      for (const [name, value] of Object.entries({ ...snapshot, key: line.key, "variant-id": line.variant_id }))
        row.setAttribute(`data-${name}`, String(value || ""));
      const title = snapshot.title || config.text("untitled");
      find(row, ".si-title")!.textContent = title;
      find(row, "button")!.setAttribute("aria-label", `${config.text("later")}: ${title}`);
      lines.append(row);
      bindLine(row);
    }
    row.setAttribute("data-quantity", String(line.quantity));
    find(row, ".si-qty")!.textContent = `× ${line.quantity}`;
  }

  function savedRow(item: ShopperItem) {
    const snapshot = item.snapshot || {};
    const row = fromTemplate(root, ".si-saved-template");
    const move = row.children[3] as HTMLButtonElement;
    const title = fillCard(row, item, config);
    move.setAttribute("aria-label", `${config.text("move")}: ${title}`);
    listen(move, "click", async () => {
      move.disabled = true;
      const quantity = snapshot.quantity || 1;
      const added = await cart<{ items: CartLine[] }>("add", {
        items: [{ id: Number(item.entityGid.split("/").pop()), quantity }],
      }).catch(() => undefined);
      // In the cart now: if the removal fails, the item is in both places, which loses nothing.
      if (added) {
        added.items.forEach((line) => showLine(line, item));
        await saveOrRemove(config, item, false);
      }
      config.status.textContent = config.text(added ? "moved" : "error");
      move.disabled = false;
      refresh();
    });
    return row;
  }

  all(lines, "li").forEach(bindLine);
  const load = () =>
    loadSavedState(config).then(() =>
      subscribe(() => {
        saved.replaceChildren(...savedRows(context).map(savedRow));
        refresh();
      }),
    );
  // The saved list is read once the block is seen: a closed cart drawer on every page costs nothing
  // until it is opened. The block is ready at once when hidden, after the read when shown.
  return new Promise((ready) => {
    const seen = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        seen.disconnect();
        load().then(ready);
      } else ready();
    });
    seen.observe(root);
  });
}
