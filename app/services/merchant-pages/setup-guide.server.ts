import type { Plan } from "~/services/plans";
import { cheapestPlanWith } from "./plan-overview.server";
import { themeItems } from "./theme-extension";

export interface SetupGuideInput {
  shop: string;
  plan: Plan;
  appUrl: string;
  apiKey: string;
}

type ChannelGuide =
  { enabled: true; examples: { title: string; code: string }[] } | { enabled: false; requiredPlan: string };

/**
 * Setup: the theme editor deep link that adds the Save button block to the product template, and,
 * for the plans that include them, the direct channels' two steps (exchange, then operations)
 * as copyable examples with this deployment's URL filled in.
 */
export function buildSetupGuide({ shop, plan, appUrl, apiKey }: SetupGuideInput) {
  const base = appUrl.replace(/\/$/, "");
  return {
    themeEditorUrl: themeItems(shop, apiKey).find((item) => item.handle === "save-button")!.editorUrl,
    storefrontProxyUrl: `https://${shop}/apps/saved-items`,
    customerAccount: channelGuide(plan, "customer-account", () => [
      {
        title: "Customer account UI extension: exchange the session token, then call an operation",
        code: customerAccountExample(base),
      },
    ]),
    headless: channelGuide(plan, "headless", () => [
      { title: "1. Exchange (from your server, never from a browser)", code: headlessExchangeExample(base, shop) },
      {
        title: "2. Operations, with the returned authorization, for 300 seconds",
        code: headlessOperationsExample(base),
      },
    ]),
  };
}

function channelGuide(
  plan: Plan,
  channel: "customer-account" | "headless",
  examples: () => { title: string; code: string }[],
): ChannelGuide {
  return plan.channels.includes(channel)
    ? { enabled: true, examples: examples() }
    : { enabled: false, requiredPlan: cheapestPlanWith(channel).name };
}

function headlessExchangeExample(base: string, shop: string): string {
  return [
    `curl -X POST '${base}/api/headless/auth/exchange' \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d '{"shop":"${shop}","customerAccountAccessToken":"<Customer Account API access token>"}'`,
    `# => {"ok":true,"data":{"authorization":"Bearer eyJ...","expiresInSeconds":300,...}}`,
  ].join("\n");
}

function headlessOperationsExample(base: string): string {
  return [
    `curl -X POST '${base}/api/headless/save' \\`,
    `  -H 'Authorization: Bearer eyJ...' -H 'Content-Type: application/json' \\`,
    `  -d '{"context":"wishlist","entityType":"product","entityGid":"gid://shopify/Product/123","source":"headless"}'`,
    ``,
    `curl '${base}/api/headless/list?context=wishlist' -H 'Authorization: Bearer eyJ...'`,
    `curl '${base}/api/headless/is-saved?context=wishlist&entityType=product&entityGid=gid%3A%2F%2Fshopify%2FProduct%2F123' \\`,
    `  -H 'Authorization: Bearer eyJ...'`,
  ].join("\n");
}

function customerAccountExample(base: string): string {
  return [
    `// shopify.extension.toml: [extensions.capabilities] network_access = true`,
    `const sessionToken = await shopify.sessionToken.get();`,
    `const exchange = await fetch("${base}/api/customer-account/auth/exchange", {`,
    `  method: "POST",`,
    `  headers: { Authorization: \`Bearer \${sessionToken}\` },`,
    `});`,
    `const { data } = await exchange.json(); // data.authorization = "Bearer eyJ...", valid 300 s`,
    ``,
    `const saved = await fetch("${base}/api/customer-account/save", {`,
    `  method: "POST",`,
    `  headers: { Authorization: data.authorization, "Content-Type": "application/json" },`,
    `  body: JSON.stringify({`,
    `    context: "wishlist",`,
    `    entityType: "product",`,
    `    entityGid: "gid://shopify/Product/123",`,
    `    source: "customer-account", // required: where the save came from, kept with the item`,
    `  }),`,
    `});`,
  ].join("\n");
}
