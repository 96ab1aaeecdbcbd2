import type { BlockConfig } from "./block-config";
import { all, data, find, fromTemplate, listen, setAttr } from "./dom";
import { loadSavedState } from "./load-saved-state";
import { fillCard } from "./product-card";
import { saveOrRemove } from "./save-or-remove";
import { savedRows, subscribe } from "./saved-state";
import { fitSnapshot, handleOf, type ShopperItem } from "./shopper-item";
import { announce, showPause } from "./status-message";

/** A line as the storefront's Ajax cart API answers it (the fields used here). */
interface CartLine {
  key: string;
  variant_id: number;
  product_id: number;
  quantity: number;
}

/** The variant /products/<handle>.js gives a saved product's Add to cart: the first one for sale. */
interface ProductJson {
  variants: { id: number; available: boolean }[];
}

/**
 * The cart block: "Save for later" on each cart line, and the saved-for-later items the cart does
 * not already hold (by variant, or by product for a saved product), each with Add to cart and
 * Remove. Nothing is ever in neither place: a line leaves the cart only once its save was
 * acknowledged (or kept as a guest save). Add to cart leaves the item saved: it shows again here
 * once it leaves the cart. The saved list comes from the saved state with rows (data-rows): one
 * read per session, not per page. While saving is paused, Remove and "Save for later" are
 * disabled; Add to cart, which only asks the shop's cart, is not.
 */
export function initCartBlock(config: BlockConfig): Promise<void> {
  const { root, context } = config;
  const lines = find(root, ".si-lines")!;
  const saved = find(root, ".si-saved")!;
  /** The cart's lines as /cart.js (or change.js, add.js since) last answered them. */
  let inCart: CartLine[] = [];
  /** Each saved item's row, made once: a refresh moves rows, so focus and a row's state stay. */
  const built: Record<string, HTMLElement> = {};

  /** The storefront's Ajax cart API (GET without a body); a refusal (422 sold out, 404 no such variant) rejects. */
  async function cart<T>(path: string, body?: object): Promise<T> {
    const response = await fetch(
      `${config.storefrontRoot}${path}.js`,
      body && {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify(body),
      },
    );
    if (!response.ok) throw new Error(String(response.status));
    // Themes listen for this to refresh their own cart (count, drawer, totals).
    if (body) document.dispatchEvent(new CustomEvent("saved-items:cart-change"));
    return response.json();
  }

  const holds = (item: ShopperItem) =>
    inCart.some((line) =>
      item.entityGid.endsWith(`/${item.entityType === "variant" ? line.variant_id : line.product_id}`),
    );

  function refresh() {
    const items = savedRows(context);
    const rows = items.filter((item) => !holds(item));
    // Rows are moved, not remade: one that had focus gets it back.
    const focused = document.activeElement as HTMLElement;
    const had = saved.contains(focused);
    saved.replaceChildren(...rows.map((item) => (built[item.entityGid] ||= savedRow(item))));
    if (had && focused.isConnected) focused.focus();
    root.setAttribute("data-state", rows.length ? "ready" : items.length ? "in-cart" : "empty");
    root.toggleAttribute("data-cart-empty", !lines.children.length);
    showPause(config, all(root, ".si-remove"), true);
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
      let done = outcome === "ok" || outcome === "already" || outcome === "guest";
      if (done)
        done = await cart<{ items: CartLine[] }>("cart/change", { id: data(row, "key"), quantity: 0 }).then(
          (answer) => !!(inCart = answer.items),
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

  /**
   * The variant Add to cart adds: the saved one, the product card's (decision 0020), or a saved
   * product's first for sale looked up by its snapshot's handle.
   */
  async function variantOf({ entityType, entityGid, snapshot, product }: ShopperItem): Promise<number> {
    const gid = entityType === "variant" ? entityGid : product && product.variantGid;
    if (gid) return Number(gid.split("/").pop());
    const { variants } = await cart<ProductJson>(`products/${snapshot!.handle}`);
    return (variants.find((variant) => variant.available) || variants[0]!).id;
  }

  /** A row's action; when it takes the row away, focus goes to the next row (or the one before, or the block). */
  async function act(row: HTMLElement, button: HTMLButtonElement, action: () => Promise<boolean>) {
    button.disabled = true;
    const next = row.nextElementSibling || row.previousElementSibling;
    const gone = await action();
    // A pause that began meanwhile keeps it disabled (showPause titles what it disables).
    button.disabled = !!button.title;
    refresh();
    if (gone) ((next && find(next, "button")) || root).focus();
  }

  function savedRow(item: ShopperItem) {
    const row = fromTemplate(root, ".si-saved-template");
    const title = fillCard(row, item, config);
    const [add, remove] = all(row, "button") as HTMLButtonElement[];
    setAttr(add!, "aria-label", `${config.text("add")}: ${title}`);
    setAttr(remove!, "aria-label", `${config.text("remove")}: ${title}`);
    // Nothing to add for an item not for sale, or a product with neither a card's variant nor a
    // handle to look one up by; its link leads to it.
    const card = item.product;
    if (card ? card.availability != "available" : item.entityType !== "variant" && !handleOf(item.snapshot))
      add!.remove();
    listen(add!, "click", () =>
      act(row, add!, async () => {
        const quantity = (item.snapshot && item.snapshot.quantity) || 1;
        const added = await variantOf(item)
          .then((id) => cart<{ items: CartLine[] }>("cart/add", { items: [{ id, quantity }] }))
          .catch(() => undefined);
        config.status.textContent = config.text(added ? "moved" : "error");
        if (!added) return false;
        added.items.forEach((line) => showLine(line, item));
        inCart = inCart.concat(added.items);
        return true;
      }),
    );
    listen(remove!, "click", () =>
      act(row, remove!, async () => {
        const outcome = await saveOrRemove(config, item, false);
        announce(config, outcome, false);
        return outcome === "ok" || outcome === "guest";
      }),
    );
    return row;
  }

  all(lines, "li").forEach(bindLine);
  const load = () =>
    Promise.all([
      cart<{ items: CartLine[] }>("cart").then(
        (answer) => (inCart = answer.items),
        // Without the cart's lines, every saved item shows: none is hidden by mistake.
        () => [],
      ),
      loadSavedState(config),
    ]).then(() => subscribe(refresh));
  // The saved list is read once the block is seen: a closed cart drawer on every page costs nothing
  // until it is opened. The block is ready at once when hidden, after the read when shown.
  return new Promise((ready) => {
    const seen = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        seen.disconnect();
        load().then(() => ready());
      } else ready();
    });
    seen.observe(root);
  });
}
