// Prints a freshly signed app proxy URL for the sandbox (signatures go stale after 90 s).
// Usage: npm run sign -- <path?query> [--customer 1001|""] [--shop demo.myshopify.com]
import { parseArgs } from "node:util";
import { signedProxyUrl } from "./proxy-signature";
import { applySandboxDefaults } from "./config";

applySandboxDefaults();
const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    customer: { type: "string", default: "1001" },
    shop: { type: "string", default: "demo.myshopify.com" },
  },
});
const target = positionals[0];
if (!target) {
  console.error(
    'usage: npm run sign -- "/proxy/api/list?context=wishlist" [--customer 1001] [--shop demo.myshopify.com]',
  );
  process.exit(2);
}
const base = new URL(target, process.env.SHOPIFY_APP_URL);
const url = signedProxyUrl(process.env.SHOPIFY_APP_URL!, base.pathname, process.env.SHOPIFY_API_SECRET!, {
  shop: values.shop,
  customerId: values.customer,
  query: Object.fromEntries(base.searchParams),
});
console.log(url.toString());
