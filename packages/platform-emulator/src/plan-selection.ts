// The platform-hosted plan selection page of Shopify App Pricing, where a merchant picks, changes
// or cancels the app's plan ("Shopify App Pricing", https://shopify.dev/docs/apps/launch/billing/shopify-app-pricing):
// https://admin.shopify.com/store/<store handle>/charges/<app handle>/pricing_plans. The page lists
// the plans; choosing one opens its approval page, whose Approve makes it the shop's active
// subscription and sends the merchant to the app's welcome link (set per app in the Partner
// Dashboard) in the embedded admin, with the subscription's id as `charge_id`; Decline changes
// nothing and returns to the app. Choosing Free cancels the subscription (a shop with none is on
// Free; whether the platform keeps a $0 subscription instead is not documented). The page's look
// and wording are the emulator's own; only the URLs and the outcome follow the platform.
import { plainRoute, type Route } from "./exchange";
import { NOT_FOUND, textReply, type Reply } from "./reply";
import { subscriptionFor, type EmulatorState, type ShopState } from "./state";
import { PLANS, type Plan } from "./types";

const PLAN_PAGE = /^https:\/\/admin\.shopify\.com\/store\/([a-z0-9][a-z0-9-]*)\/charges\/([\w-]+)\/pricing_plans$/;
const APPROVAL_PAGE =
  /^https:\/\/admin\.shopify\.com\/store\/([a-z0-9][a-z0-9-]*)\/charges\/([\w-]+)\/pricing_plans\/([a-z]+)$/;

export interface PlanSelectionOptions {
  /** Each paid plan's name and monthly price, as the plan page shows them. */
  catalogue: Record<Exclude<Plan, "free">, { name: string; amount: string }>;
  /** The app's welcome link (a path of the app), read when the merchant approves. */
  welcomeLink(): string | undefined;
}

/** The embedded admin's URL of the app's `path`, which the platform opens in the app's iframe. */
export const embeddedAppUrl = (store: string, app: string, path = "") =>
  `https://admin.shopify.com/store/${store}/apps/${app}${path}`;

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

const html = (title: string, body: string): Reply =>
  textReply(
    200,
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title>` +
      `<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem}` +
      `li{margin:.5rem 0}button{margin-right:.5rem;padding:.4rem 1rem}</style></head>` +
      `<body><main><p><small>Emulated platform page</small></p>${body}</main></body></html>`,
    "text/html; charset=utf-8",
  );

const redirect = (location: string): Reply => ({ status: 303, body: "", headers: { Location: location }, text: true });

export function planSelectionRoutes(state: EmulatorState, options: PlanSelectionOptions): Route[] {
  const shopOf = (store: string | undefined): ShopState | undefined => state.shops.get(`${store}.myshopify.com`);
  const planName = (plan: Plan) => (plan === "free" ? "Free" : options.catalogue[plan].name);
  const price = (plan: Plan) => (plan === "free" ? "$0" : `$${options.catalogue[plan].amount}`);
  const currentPlan = (shop: ShopState): Plan => shop.subscription?.plan ?? "free";
  const planOf = (value: string | undefined) => PLANS.find((plan) => plan === value);

  const planPage = (shop: ShopState, app: string): Reply => {
    const current = currentPlan(shop);
    const items = PLANS.map((plan) => {
      const label = `${planName(plan)}: ${price(plan)} every 30 days`;
      return plan === current
        ? `<li>${escape(label)} (current plan)</li>`
        : `<li>${escape(label)} <a href="pricing_plans/${plan}">Choose ${escape(planName(plan))}</a></li>`;
    }).join("");
    return html(
      "Choose a plan",
      `<h1>Choose a plan for ${escape(app)}</h1><p>${escape(shop.domain)}</p><ul>${items}</ul>`,
    );
  };

  const approvalPage = (shop: ShopState, plan: Plan): Reply =>
    html(
      `Approve ${planName(plan)}`,
      `<h1>Approve the ${escape(planName(plan))} plan</h1>` +
        `<p>${escape(shop.domain)} will be charged ${escape(price(plan))} every 30 days, and usage as the plan's ` +
        `meters price it, from today.</p><form method="post">` +
        `<button name="decision" value="approve">Approve</button>` +
        `<button name="decision" value="decline">Decline</button></form>`,
    );

  const decide = async (request: Request, shop: ShopState, store: string, app: string, plan: Plan) => {
    const decision = new URLSearchParams(await request.text()).get("decision");
    if (decision !== "approve") return redirect(embeddedAppUrl(store, app));
    shop.subscription = subscriptionFor(state, plan);
    const welcome = embeddedAppUrl(store, app, options.welcomeLink() ?? "");
    return redirect(shop.subscription ? `${welcome}?charge_id=${shop.subscription.id}` : welcome);
  };

  return [
    plainRoute(state, {
      api: "admin",
      method: "GET",
      url: PLAN_PAGE,
      shopOf: ([store]) => `${store}.myshopify.com`,
      handle: (_request, [store, app]) => {
        const shop = shopOf(store);
        return shop ? planPage(shop, app!) : NOT_FOUND;
      },
    }),
    plainRoute(state, {
      api: "admin",
      method: "GET",
      url: APPROVAL_PAGE,
      shopOf: ([store]) => `${store}.myshopify.com`,
      handle: (_request, [store, , value]) => {
        const shop = shopOf(store);
        const plan = planOf(value);
        return shop && plan ? approvalPage(shop, plan) : NOT_FOUND;
      },
    }),
    plainRoute(state, {
      api: "admin",
      method: "POST",
      url: APPROVAL_PAGE,
      shopOf: ([store]) => `${store}.myshopify.com`,
      handle: (request, [store, app, value]) => {
        const shop = shopOf(store);
        const plan = planOf(value);
        return shop && plan ? decide(request, shop, store!, app!, plan) : NOT_FOUND;
      },
    }),
  ];
}
