import type { BlockConfig } from "./block-config";
import { all, data, find, fromTemplate, listen, setAttr } from "./dom";
import { loadSavedState } from "./load-saved-state";
import { saveOrRemove, type Outcome } from "./save-or-remove";
import { savedProductOf, savedValue, subscribe } from "./saved-state";
import { fitSnapshot, PRODUCT_GID, productHandle, type ShopperItem } from "./shopper-item";
import { announce, showPause } from "./status-message";

/**
 * The card hearts embed: a heart on every product card of the page (cards added later too). A
 * card's product is its data-product-id, else the first /products/<handle> link inside it: the saved
 * product of that handle, or, when none is, the id <handle>.js answers on the first click.
 */
export function initCardHearts(config: BlockConfig): Promise<void> | undefined {
  const { root, context, status } = config;
  const selector = data(root, "selector") || "[data-saved-items-card]";
  let clearStatus: ReturnType<typeof setTimeout> | undefined;

  function addHeart(card: HTMLElement) {
    if (card.closest("[data-si-card]") || find(card, "[data-si-card]")) return;
    const idHolder = card.matches("[data-product-id]") ? card : find(card, "[data-product-id]");
    const link = find<HTMLAnchorElement>(card, 'a[href*="/products/"]');
    let id = idHolder && data(idHolder, "product-id");
    const handle = link && productHandle(link.pathname);
    if (!id && !handle) return;
    setAttr(card, "data-si-card", "");
    const name = (find(card, "h2, h3, h4") || link || card).textContent!.trim();
    const image = find<HTMLImageElement>(card, "img");
    const heart = fromTemplate(root);
    setAttr(heart, "aria-label", `${config.text("save")}: ${name}`);
    const gid = () => (id ? PRODUCT_GID + id : savedProductOf(context, handle!));
    const isSaved = () => {
      const product = gid();
      return !!product && savedValue(context, product) !== undefined;
    };

    // The card's item; a card known by its link only keeps its product's id from here on.
    async function item(): Promise<ShopperItem> {
      const saved = gid();
      id ||= saved
        ? saved.slice(PRODUCT_GID.length)
        : String((await (await fetch(`${config.storefrontRoot}products/${handle}.js`)).json()).id);
      const price = find(card, "[data-price], .price");
      return {
        context,
        entityType: "product",
        entityGid: PRODUCT_GID + id,
        snapshot: fitSnapshot({
          title: name,
          url: link && link.pathname,
          image: image && (image.currentSrc || image.src),
          price: price && price.textContent!.trim(),
          handle,
        }),
      };
    }

    listen(heart, "click", async () => {
      const on = !isSaved();
      let outcome: Outcome;
      try {
        outcome = await saveOrRemove(config, await item(), on);
      } catch {
        outcome = "error";
      }
      announce(config, outcome, on);
      clearTimeout(clearStatus);
      if (outcome !== "guest") clearStatus = setTimeout(() => (status.textContent = ""), 5000);
    });
    const controls = [heart];
    // "Save to…" where the embed's setting asks for it (rendered for a logged-in shopper only).
    if (find(root, ".si-save-to-template")) {
      const saveTo = fromTemplate(root, ".si-save-to-template");
      listen(find(saveTo, ".si-save-to")!, "click", () =>
        import("./save-to").then((chunk) => chunk.openSaveTo(config, saveTo, item)),
      );
      controls.push(saveTo);
    }
    // A paused heart keeps the last known state, disabled; the toast stays for what a click did.
    subscribe(() => {
      setAttr(heart, "aria-pressed", isSaved());
      showPause(
        config,
        controls.map((control) => find(control, ".si-save-to") || control),
      );
    });
    // A card is often a link, or inside one: clicks on its controls are theirs, not the card's.
    for (const control of controls) {
      listen(control, "click", (event) => {
        event.preventDefault();
        event.stopPropagation();
      });
      card.append(control);
    }
  }

  // The saved state is loaded only once a card shows up: pages without cards cost nothing.
  function scan() {
    all(document, selector).forEach(addHeart);
    return all(document, "[data-si-card]").length ? loadSavedState(config) : undefined;
  }
  let pending: ReturnType<typeof setTimeout> | undefined;
  new MutationObserver(() => {
    clearTimeout(pending);
    pending = setTimeout(scan, 100);
  }).observe(document.body, { childList: true, subtree: true });
  return scan();
}
