// Prints a freshly signed app proxy URL for the sandbox (signatures go stale after 90 s).
import { parseArgs } from "node:util";
import { signedProxyUrl } from "./proxy-signature";
import { applySandboxDefaults, runningSandboxPort } from "./config";

const USAGE = `usage: npm run -s sign -- <path?query> [--customer 1001|""] [--shop demo.myshopify.com] [--port <port>]

Prints an app proxy URL signed as the platform signs it, valid 90 s, for the sandbox's front.
  --customer  the logged-in customer's id; "" for a logged-out shopper (default 1001)
  --shop      the seeded shop (default demo.myshopify.com)
  --port      the sandbox's port; default PORT, else the port of the sandbox started last, else 3000

  curl "$(npm run -s sign -- '/proxy/api/list?context=wishlist' --customer 1001)"`;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    customer: { type: "string", default: "1001" },
    shop: { type: "string", default: "demo.myshopify.com" },
    port: { type: "string" },
    help: { type: "boolean", short: "h" },
  },
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const target = positionals[0];
if (!target) {
  console.error(USAGE);
  process.exit(2);
}
// An explicit port, then PORT, then the running sandbox: a sandbox on another port is signed for as it runs.
const port = values.port || process.env.PORT || runningSandboxPort()?.toString();
if (port) process.env.PORT = port;
applySandboxDefaults();
const appUrl = process.env.SHOPIFY_APP_URL!;
const base = new URL(target, appUrl);
const url = signedProxyUrl(appUrl, base.pathname, process.env.SHOPIFY_API_SECRET!, {
  shop: values.shop,
  customerId: values.customer,
  query: Object.fromEntries(base.searchParams),
});
console.log(url.toString());
