import type { BlockConfig } from "./block-config";
import { data, find, listen, setAttr } from "./dom";
import { loadSavedState } from "./load-saved-state";
import { saveOrRemove } from "./save-or-remove";
import { savedValue, subscribe } from "./saved-state";
import { fitSnapshot, type ShopperItem } from "./shopper-item";
import { announce, showPause } from "./status-message";

interface Variant {
  id: number;
  title: string;
  price: string;
  image?: string;
}

/** The save button of a product page: the product, or the variant the theme has selected. */
export function initSaveButton(config: BlockConfig): Promise<void> {
  const { root, context, status } = config;
  const button = find(root, "button")!;
  const label = find(root, ".si-label")!;
  const savesVariant = data(root, "entity") === "variant";
  const variants: Record<string, Variant> = {};
  let variantId = data(root, "variant-id");
  try {
    for (const variant of JSON.parse(find(root, "[data-si-variants]")!.textContent!) as Variant[])
      variants[variant.id] = variant;
  } catch {
    // No variant data: the product's own title, image and price are saved.
  }

  const gid = () =>
    `gid://shopify/${savesVariant ? `ProductVariant/${variantId}` : `Product/${data(root, "product-id")}`}`;
  const isSaved = () => savedValue(context, gid()) !== undefined;
  const saveTo = find(root, ".si-save-to");

  function item(): ShopperItem {
    const variant: Partial<Variant> = (savesVariant && variants[variantId]) || {};
    const title = data(root, "title");
    return {
      context,
      entityType: savesVariant ? "variant" : "product",
      entityGid: gid(),
      snapshot: fitSnapshot({
        title: variant.title && variant.title !== "Default Title" ? `${title} – ${variant.title}` : title,
        url: data(root, "url") + (savesVariant ? `?variant=${variantId}` : ""),
        image: variant.image || data(root, "image"),
        price: variant.price || data(root, "price"),
        handle: data(root, "handle"),
      }),
    };
  }

  function render() {
    const on = isSaved();
    setAttr(button, "aria-pressed", on);
    label.textContent = config.text(on ? "saved" : "save");
    showPause(config, saveTo ? [button, saveTo] : [button], true);
  }

  // Follows the theme's variant: a variant:change event, the product form's id input, ?variant=.
  function followVariant(id?: unknown) {
    const input = find<HTMLInputElement>(document, 'form[action*="/cart/add"] [name=id]');
    const selected = String(
      id || (input && input.value) || new URLSearchParams(location.search).get("variant") || variantId,
    );
    if (selected !== variantId && variants[selected]) {
      variantId = selected;
      status.textContent = "";
      render();
    }
  }
  listen(document, "variant:change", (event) => {
    const detail = (event as CustomEvent<{ variant?: { id: unknown }; id?: unknown } | null>).detail;
    const variant = detail && (detail.variant || detail);
    followVariant(variant && variant.id);
  });
  listen(
    document,
    "change",
    (event) => {
      const target = event.target as Element;
      if (target.closest && target.closest('form[action*="/cart/add"]')) setTimeout(followVariant);
    },
    true,
  );
  listen(window, "popstate", () => followVariant());
  listen(button, "click", async () => {
    const on = !isSaved();
    announce(config, await saveOrRemove(config, item(), on), on);
  });
  if (saveTo) listen(saveTo, "click", () => import("./save-to").then((chunk) => chunk.openSaveTo(config, root, item)));
  subscribe(render);
  return loadSavedState(config);
}
