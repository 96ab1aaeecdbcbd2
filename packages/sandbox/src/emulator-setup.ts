// What the emulator's process runs before it listens (main.ts --setup): the seed's shops and their
// generated saved items go straight into its memory, so a seed of many thousand items never
// crosses HTTP, and the emulator needs to know nothing of the sandbox's seed format.
import type { EmulatorSetup } from "@saved-items/platform-emulator/types";
import { OVERAGE_METER } from "../../../app/services/plans";
import type { ProductSeed } from "@saved-items/platform-emulator";
import { seedSavedItems, seedSavers } from "./saved-items-seed";
import { loadSeed } from "./seed";
import { PRODUCTS } from "./storefront/catalog";

/** The storefront's demo catalog, as the platform's: the products its pages show exist in every shop. */
const storefrontProducts: ProductSeed[] = PRODUCTS.map((product) => ({
  id: `gid://shopify/Product/${product.id}`,
  title: product.title,
  handle: product.handle,
  // The demo's inline SVG: the theme's cards show it; the shared page, which loads images only from
  // the platform's CDN or the shop's /cdn/, shows the storefront's own product image instead.
  imageUrl: product.image,
  totalInventory: product.variants.filter((variant) => variant.available).length * 10,
  variants: product.variants.map((variant) => ({
    id: `gid://shopify/ProductVariant/${variant.id}`,
    title: variant.title,
    price: (variant.price / 100).toFixed(2),
    availableForSale: variant.available,
  })),
}));

const setup: EmulatorSetup = (emulator, seedFile) => {
  if (!seedFile) throw new Error("The sandbox's emulator setup takes the seed file as its argument.");
  // The app's Shopify App Pricing configuration, as its Partner Dashboard holds it (docs/deploy.md).
  emulator.setAppPricing({ meters: [OVERAGE_METER], welcomeLink: "/app/billing/return" });
  for (const shop of loadSeed(seedFile).shops) {
    const { adminCredentials } = emulator.addShop(shop);
    console.error(`emulator: ${shop.domain} admin credentials ${JSON.stringify(adminCredentials)}`);
    emulator.addProducts(shop.domain, storefrontProducts);
    if (shop.savedItems) {
      const { items } = seedSavedItems(emulator, shop.domain, shop.savedItems, new Date());
      console.error(`emulator: ${shop.domain} seeded with ${items.length} saved items`);
    }
    if (shop.savers) {
      const publish = shop.grantedOptionalScopes?.includes("write_products") ?? false;
      seedSavers(emulator, shop.domain, shop.savers, publish, new Date());
    }
  }
};

export default setup;
