import { platformPageUrl } from "~/platform/platform-fetch.server";

/** The app's handle in shopify.app.toml; the platform's hosted plan page is addressed by it. */
export const APP_HANDLE = "saved-items";

/** "demo.myshopify.com" → "demo", the store handle admin.shopify.com URLs use. */
export function storeHandle(shop: string): string {
  return shop.replace(/\.myshopify\.com$/, "");
}

/**
 * The platform-hosted plan selection page of Shopify App Pricing, where the merchant upgrades,
 * downgrades or cancels. It lives on admin.shopify.com, so the embedded app opens it top-level;
 * in the sandbox, the emulated page on the sandbox's origin.
 */
export function pricingPlansUrl(shop: string): string {
  return platformPageUrl(`https://admin.shopify.com/store/${storeHandle(shop)}/charges/${APP_HANDLE}/pricing_plans`);
}
