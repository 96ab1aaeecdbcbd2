import path from "node:path";
import { vi } from "vitest";
import { repoRoot } from "@saved-items/sandbox/config";
import type { CatalogueProduct, CatalogueVariant } from "../../../extensions/saved-items-pos/src/lib/counter-items";
import { translatorFor } from "./account-platform";

export const POS_EXTENSION_DIR = path.join(repoRoot, "extensions/saved-items-pos");
export const POS_LIST = "/api/pos/list";

export interface FakePos {
  /** Messages shown with shopify.toast.show. */
  toasts: string[];
  /** Variant ids and quantities passed to shopify.cart.addLineItem. */
  cart: { variantId: number; quantity: number }[];
  /** Targets registered with shopify.extend, as the platform's runtime receives them. */
  targets: Map<string, () => unknown>;
  /** The ids each product search call was asked for. */
  searches: { variants: number[][]; products: number[][] };
}

export interface FakePosSetup {
  customerId?: number;
  /** What getSessionToken resolves to; undefined as for a user without the app's permission. */
  sessionToken?: string | undefined;
  variants?: CatalogueVariant[];
  products?: CatalogueProduct[];
  /** Makes addLineItem reject. */
  cartFails?: boolean;
}

/** The `shopify` global of a POS UI extension on the customer details screen, as far as the extension uses it. */
export function installFakePos(setup: FakePosSetup = {}): FakePos {
  const pos: FakePos = { toasts: [], cart: [], targets: new Map(), searches: { variants: [], products: [] } };
  const found = <T extends { id: number }>(all: T[] | undefined, ids: number[]) => ({
    fetchedResources: (all ?? []).filter((resource) => ids.includes(resource.id)),
    idsForResourcesNotFound: ids.filter((id) => !(all ?? []).some((resource) => resource.id === id)),
  });
  vi.stubGlobal("shopify", {
    extend: (target: string, run: () => unknown) => pos.targets.set(target, run),
    i18n: { translate: translatorFor(POS_EXTENSION_DIR) },
    customer: { id: setup.customerId ?? 1001 },
    session: { getSessionToken: async () => ("sessionToken" in setup ? setup.sessionToken : "pos-session-token") },
    productSearch: {
      fetchProductVariantsWithIds: async (ids: number[]) => {
        pos.searches.variants.push(ids);
        return found(setup.variants, ids);
      },
      fetchProductsWithIds: async (ids: number[]) => {
        pos.searches.products.push(ids);
        return found(setup.products, ids);
      },
    },
    cart: {
      addLineItem: async (variantId: number, quantity: number) => {
        if (setup.cartFails) throw new Error("cart refused");
        pos.cart.push({ variantId, quantity });
        return "line-uuid";
      },
    },
    toast: { show: (message: string) => void pos.toasts.push(message) },
  });
  return pos;
}

/** A POS catalogue variant: tracked, in stock at this location, unless told otherwise. */
export function aVariant(overrides: Partial<CatalogueVariant> = {}): CatalogueVariant {
  return {
    id: 11,
    title: "Large / Blue",
    displayName: "Jacket - Large / Blue",
    image: "https://cdn.example/jacket-blue.png",
    inventoryIsTracked: true,
    inventoryAtLocation: 3,
    inventoryAtAllLocations: 10,
    inventoryPolicy: "DENY",
    product: { title: "Jacket", featuredImage: "https://cdn.example/jacket.png" },
    ...overrides,
  };
}
