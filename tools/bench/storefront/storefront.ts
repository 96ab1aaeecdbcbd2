// The storefront section: Lighthouse on a collection and a product page of the sandbox storefront,
// with the app (its blocks, embed and assets) and without it (?app=off, the theme alone), logged in
// as a customer with 5 saved items; each run is that session's first page view (localStorage
// cleared, so the theme script has nothing stored and reads the list once).
import type { Result } from "lighthouse";
import { PROXY_PREFIX } from "@saved-items/sandbox/storefront/router";
import { ASSETS_URL_PREFIX } from "@saved-items/sandbox/storefront/liquid";
import { PRODUCTS } from "@saved-items/sandbox/storefront/catalog";
import { signed } from "../sandbox";
import { fixed, printTable } from "../stats";
import { medians, runLighthouse, type BrowserBench } from "./harness";

const SHOP = "demo.myshopify.com";
const CUSTOMER = "1001";
const PAGES = [
  { name: "collection", path: "/collections/all" },
  { name: "product", path: "/products/linen-shirt" },
];
/** The target: the app may add at most this much to LCP. */
const LCP_BUDGET_MS = 50;

type Figures = Record<
  "score" | "lcp" | "tbt" | "cls" | "appRequests" | "apiRequests" | "appBytes" | "appBeforeLcp",
  number
>;

interface NetworkRequest {
  url: string;
  transferSize?: number;
  /** Milliseconds from the page's first request, about its navigation's start. */
  networkEndTime?: number;
}

/**
 * The figures of one run; the app's requests are its assets and its app proxy calls. appBeforeLcp
 * counts those that ended before the largest paint reached the screen in the unthrottled load the
 * simulation starts from: the ones its simulated LCP may count (decision 0012).
 */
export function figuresOf(lhr: Result): Figures {
  const audit = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  const details = lhr.audits["network-requests"]?.details;
  const requests = (details && "items" in details ? details.items : []) as unknown as NetworkRequest[];
  const paths = requests.map((request) => ({
    path: new URL(request.url).pathname,
    bytes: request.transferSize ?? 0,
    end: request.networkEndTime ?? Infinity,
  }));
  const metrics = lhr.audits["metrics"]?.details;
  const observed = (metrics && "items" in metrics ? metrics.items[0] : undefined) as
    { observedLargestContentfulPaint?: number } | undefined;
  const observedLcp = observed?.observedLargestContentfulPaint ?? NaN;
  const app = paths.filter(({ path }) => path.startsWith(ASSETS_URL_PREFIX) || path.startsWith(`${PROXY_PREFIX}/`));
  return {
    score: (lhr.categories.performance?.score ?? NaN) * 100,
    lcp: audit("largest-contentful-paint"),
    tbt: audit("total-blocking-time"),
    cls: audit("cumulative-layout-shift"),
    appRequests: app.length,
    apiRequests: app.filter(({ path }) => path.startsWith(`${PROXY_PREFIX}/`)).length,
    appBytes: app.reduce((sum, { bytes }) => sum + bytes, 0),
    appBeforeLcp: app.filter(({ end }) => end <= observedLcp).length,
  };
}

/** Saves the first five catalog products for the customer, through the app proxy as a theme would. */
async function seedSavedItems(base: string): Promise<void> {
  const operations = PRODUCTS.slice(0, 5).map((product) => ({
    action: "save",
    context: "wishlist",
    entityType: "product",
    entityGid: `gid://shopify/Product/${product.id}`,
    source: "bench",
    snapshot: { title: product.title, handle: product.handle, url: `/products/${product.handle}` },
  }));
  const response = await fetch(signed(base, "batch", { shop: SHOP, customer: CUSTOMER }), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ operations }),
  });
  const body = (await response.json()) as { ok: boolean; data?: { succeeded: number } };
  if (!body.ok || body.data?.succeeded !== 5) throw new Error(`seeding 5 saved items failed: ${JSON.stringify(body)}`);
}

export async function measureStorefront({ sandbox, chromium, runs }: BrowserBench): Promise<void> {
  await seedSavedItems(sandbox.url);
  const context = chromium.browser.contexts()[0]!;
  const page = context.pages()[0] ?? (await context.newPage());
  // Logged in on a page without the app: a page of it would read the list and store it, maybe
  // after the storage below is cleared.
  await page.goto(`${sandbox.url}/account/login?shop=${SHOP}&return_url=/collections/all?app=off`);
  await page.goto(`${sandbox.url}/account/login?customer=${CUSTOMER}&return_url=/collections/all?app=off`);
  const cdp = await context.newCDPSession(page);
  const firstView = () =>
    cdp.send("Storage.clearDataForOrigin", { origin: sandbox.url, storageTypes: "local_storage" });

  // Interleaved (collection with, without, product with, without, then again), so that the
  // machine's other work weighs on every configuration alike.
  const results = new Map<string, Figures[]>();
  for (let run = 1; run <= runs; run += 1) {
    for (const { name, path } of PAGES) {
      for (const app of [true, false]) {
        await firstView();
        const url = `${sandbox.url}${path}${app ? "" : "?app=off"}`;
        const key = `${name} ${app ? "with" : "without"}`;
        process.stderr.write(`lighthouse ${run}/${runs}: ${key} the app\n`);
        const list = results.get(key) ?? [];
        list.push(figuresOf(await runLighthouse(chromium.port, url)));
        results.set(key, list);
      }
    }
  }

  console.log(
    `\nStorefront: Lighthouse 12 performance, simulated mobile, median of ${runs} runs, logged in as customer ` +
      `${CUSTOMER} with 5 saved items, each run a session's first page view. App requests: its assets ` +
      `(${ASSETS_URL_PREFIX}*) and its app proxy (${PROXY_PREFIX}/*, "API"); bytes as transferred. A run with an ` +
      `app request that ended before the observed LCP is one whose simulated LCP may count it.\n`,
  );
  const rows: Record<string, string>[] = [];
  for (const { name } of PAGES) {
    const withApp = medians(results.get(`${name} with`)!);
    const without = medians(results.get(`${name} without`)!);
    for (const [label, key, figures] of [
      ["with the app", `${name} with`, withApp],
      ["without", `${name} without`, without],
    ] as const) {
      const counted = results.get(key)!.filter((run) => run.appBeforeLcp > 0).length;
      rows.push({
        page: name,
        "": label,
        score: fixed(figures.score, 0),
        "LCP ms": fixed(figures.lcp, 0),
        "TBT ms": fixed(figures.tbt, 0),
        CLS: fixed(figures.cls, 3),
        "app requests": fixed(figures.appRequests, 0),
        "of which API": fixed(figures.apiRequests, 0),
        "app KB": fixed(figures.appBytes / 1024, 1),
        // Not a median, which would hide them: whether any run had one is what matters.
        "runs with one done before LCP": `${counted}/${runs}`,
      });
    }
    const delta = withApp.lcp - without.lcp;
    rows.push({
      page: name,
      "": "difference",
      score: fixed(withApp.score - without.score, 0),
      "LCP ms": `${delta >= 0 ? "+" : ""}${fixed(delta, 0)} (target ≤ ${LCP_BUDGET_MS}: ${delta <= LCP_BUDGET_MS ? "met" : "missed"})`,
      "TBT ms": fixed(withApp.tbt - without.tbt, 0),
      CLS: fixed(withApp.cls - without.cls, 3),
    });
  }
  printTable(rows);
}
