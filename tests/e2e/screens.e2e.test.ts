// Looked at, not only tested (issue #32): every storefront state of the theme app extension (an empty
// list, items saved by the theme, items saved without snapshots through the headless API, named
// lists, the cart block, a shared list, saving paused by a spent budget), at desktop and phone width,
// and every embedded admin page in each budget state, rendered by the sandbox in Chromium and saved
// as screenshots in .data/screenshots/ for a developer to open. Each view fails when a saved-item
// card has no title or no image, when text overflows its box or anything passes the viewport's
// edge, or when axe-core finds a WCAG 2.1 AA violation; every problem of a view is listed at once.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@prisma/client";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { callSandboxProxy } from "@saved-items/sandbox/proxy-client";
import { repoRoot, SANDBOX_DEFAULTS } from "@saved-items/sandbox/config";
import { startSandbox, type RunningSandbox } from "@saved-items/sandbox/sandbox-process";
import { loadSeed, type SeedInput } from "@saved-items/sandbox/seed";
import { createTestDatabase, type TestDatabase } from "@saved-items/sandbox/test-databases";
import { PLANS } from "~/services/plans";
import { usagePeriod } from "~/services/usage/monthly-budget.server";
import { ADMIN_PAGES, adminPage, adminUrl, hydrated } from "../support/admin-browser";
import { axeViolations } from "../support/axe";
import { BUDGET_STATES, recordOverage } from "../support/budget-states";
import { browserMissing, browserTestTitle, CHROMIUM, CHROMIUM_ARGS, refusal } from "../support/chromium";

const SCREENSHOTS = path.join(repoRoot, ".data/screenshots");
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 375, height: 812 };

const DEMO = "demo.myshopify.com";
/** A Starter shop whose budget the test spends while a shopper looks at her list. */
const PAUSED_SHOP = "paused-store.myshopify.com";
const PAUSED_CUSTOMER = "6001";
const budgetShop = (slug: string) => `budget-${slug}.myshopify.com`;

/** The app's parts of a storefront page: the blocks, and the shared list the platform renders in the theme. */
const APP_PARTS = "[data-si], .saved-items-shared";
/**
 * A saved item as the shopper sees it: a row of the Saved items block or of the cart block's
 * saved-for-later list, an item of the shared page; `data-saved-item-card` (with
 * `data-card-title` and `data-card-image` inside) is the hook a card can carry whatever its classes.
 */
const CARD =
  "[data-saved-item-card], [data-si=list] .si-items > li, [data-si=cart] .si-saved > li, .saved-items-shared__item";
const CARD_TITLE = "[data-card-title], .si-title, .saved-items-shared__title";
const CARD_IMAGE = "[data-card-image], img";
/** What the theme shows for an item it knows no title of: no title to a shopper. */
const UNTITLED = (
  JSON.parse(readFileSync(path.join(repoRoot, "extensions/saved-items-theme/locales/en.default.json"), "utf8")) as {
    saved_items: { list: { untitled: string } };
  }
).saved_items.list.untitled;

/** The items saved without a snapshot, as a headless backend or the API saves them: an id and nothing else. */
const BARE_ITEMS = [
  { entityType: "product", entityGid: "gid://shopify/Product/8102" },
  { entityType: "product", entityGid: "gid://shopify/Product/8104" },
  { entityType: "variant", entityGid: "gid://shopify/ProductVariant/91013" },
];

/**
 * The seed: the example's demo shop (its customers hold the tokens the headless exchange takes),
 * a shop per budget state for the admin, and the Starter shop whose budget runs out.
 */
function writeSeed(directory: string): string {
  const demo = loadSeed(SANDBOX_DEFAULTS.SANDBOX_SEED).shops.find((shop) => shop.domain === DEMO)!;
  const seed: SeedInput = {
    shops: [
      demo,
      {
        domain: PAUSED_SHOP,
        plan: "starter",
        installed: true,
        customers: [{ id: `gid://shopify/Customer/${PAUSED_CUSTOMER}` }],
      },
      ...BUDGET_STATES.map(({ slug, setup }) => ({
        domain: budgetShop(slug),
        plan: setup.plan,
        installed: true,
        customers: [],
      })),
    ],
  };
  const file = path.join(directory, "seed.json");
  writeFileSync(file, JSON.stringify(seed));
  return file;
}

/**
 * Runs in the page: text wider than its box (the innermost box with text it overflows, unless that box
 * scrolls on purpose or is visually hidden), anything reaching past the viewport's right or left
 * edge (the outermost such), and a page wider than the viewport.
 */
function layoutProblems(scope: string): string[] {
  const viewport = document.documentElement.clientWidth;
  const problems: string[] = [];
  const describe = (el: Element) =>
    `<${el.tagName.toLowerCase()}${el.className && typeof el.className === "string" ? ` class="${el.className.trim()}"` : ""}> "${(el.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 60)}"`;
  const exempt = (el: Element) => {
    for (let at: Element | null = el; at && at !== document.body; at = at.parentElement) {
      const style = getComputedStyle(at);
      if (at !== el && /auto|scroll/.test(style.overflowX)) return true; // a table or code block that scrolls
      if (style.clip !== "auto" || style.clipPath !== "none") return true; // for screen readers only
    }
    return false;
  };
  if (document.documentElement.scrollWidth > viewport + 1)
    problems.push(`the page is ${document.documentElement.scrollWidth}px wide in a ${viewport}px viewport`);
  const elements = [...document.querySelectorAll(scope)].flatMap((root) => [root, ...root.querySelectorAll("*")]);
  const shown = elements.filter((el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden");
  const overflowing = shown.filter((el) => {
    const style = getComputedStyle(el);
    return (
      (el.textContent ?? "").trim() !== "" &&
      style.display !== "inline" &&
      el.clientWidth > 0 &&
      el.scrollWidth > el.clientWidth + 1 &&
      !/auto|scroll/.test(style.overflowX) &&
      !exempt(el)
    );
  });
  for (const el of overflowing)
    if (!overflowing.some((other) => other !== el && el.contains(other)))
      problems.push(`text overflows its box: ${describe(el)}, ${el.scrollWidth}px in ${el.clientWidth}px`);
  const past = shown.filter((el) => {
    const { left, right } = el.getBoundingClientRect();
    // Wholly outside is placed there on purpose (a skip link); across the edge is cut off.
    return ((right > viewport + 1 && left < viewport) || (left < -1 && right > 0)) && !exempt(el);
  });
  for (const el of past)
    if (!past.some((other) => other !== el && other.contains(el))) {
      const { left, right } = el.getBoundingClientRect();
      problems.push(
        `past the viewport's edge: ${describe(el)}, ${Math.round(left)}px to ${Math.round(right)}px of ${viewport}px`,
      );
    }
  return problems;
}

/** Runs in the page: each saved-item card shown, and what it lacks (a title, an image that loaded). */
function cardProblems({
  card,
  title,
  image,
  untitled,
}: {
  card: string;
  title: string;
  image: string;
  untitled: string;
}): { count: number; problems: string[] } {
  const cards = [...document.querySelectorAll(card)].filter((el) => el.getClientRects().length > 0);
  const problems = cards.flatMap((el, index) => {
    const text = (el.querySelector(title)?.textContent ?? "").trim();
    const img = el.querySelector<HTMLImageElement>(image);
    const lacks: string[] = [];
    // "Product 8102": the shared page's fallback names an item by its id, which is no title either.
    if (!text || text === untitled || /^(Product|ProductVariant) \d+$/.test(text))
      lacks.push(`no title (shows "${text}")`);
    if (!img || !img.complete || img.naturalWidth === 0) lacks.push(img ? "an image that did not load" : "no image");
    return lacks.map(
      (lack) => `card ${index + 1} has ${lack}: "${(el.textContent ?? "").trim().replace(/\s+/g, " ")}"`,
    );
  });
  return { count: cards.length, problems };
}

describe.skipIf(browserMissing)(
  browserTestTitle("every storefront state and admin page, screenshotted and checked in Chromium"),
  // A view is a few page loads, a screenshot at each width and an axe run: seconds, more on a busy machine.
  { timeout: 60_000 },
  () => {
    let database: TestDatabase;
    let db: PrismaClient;
    let sandbox: RunningSandbox;
    let browser: Browser;
    let storefront: BrowserContext;
    let page: Page;
    const saved: string[] = [];
    let seedDirectory: string | undefined;

    beforeAll(async () => {
      rmSync(SCREENSHOTS, { recursive: true, force: true });
      mkdirSync(SCREENSHOTS, { recursive: true });
      // A database of the sandbox's own, so the test can write each shop's month into it.
      database = await createTestDatabase(inject("testDatabases"));
      seedDirectory = mkdtempSync(path.join(tmpdir(), "saved-items-screens-"));
      sandbox = await startSandbox({ DATABASE_URL: database.url, SANDBOX_SEED: writeSeed(seedDirectory) });
      db = new PrismaClient({ adapter: new PrismaPg({ connectionString: database.url, max: 1 }) });
      // Before any request to these shops: an instance leases budget units on a shop's first request.
      const period = usagePeriod(new Date());
      for (const { slug, setup } of BUDGET_STATES) {
        await db.usageCounter.create({ data: { shopDomain: budgetShop(slug), period, count: setup.used } });
        if (setup.overage) await recordOverage(db, budgetShop(slug), setup.overage, period, new Date());
      }
      // Room for the paused shopper's few requests before the test spends the rest.
      await db.usageCounter.create({
        data: { shopDomain: PAUSED_SHOP, period, count: PLANS.starter.monthlyRequests - 20 },
      });
      browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
      storefront = await browser.newContext({ baseURL: sandbox.url, viewport: DESKTOP });
      page = await storefront.newPage();
      page.setDefaultTimeout(30_000);
    }, 300_000);

    afterAll(async () => {
      await browser?.close();
      await db?.$disconnect();
      await sandbox?.stop();
      await database?.drop();
      if (seedDirectory) rmSync(seedDirectory, { recursive: true, force: true });
      if (saved.length) console.log(`${saved.length} screenshots in ${SCREENSHOTS}:\n  ${saved.join("\n  ")}`);
    });

    async function screenshot(on: Page, name: string) {
      const file = path.join(SCREENSHOTS, `${name}.png`);
      await on.screenshot({ path: file, fullPage: true });
      saved.push(path.basename(file));
    }

    /** Opens a storefront page and waits until the extension's script has read the saved state. */
    async function open(url: string) {
      await page.goto(url);
      await page.locator("[data-si]:not([data-si-ready])").first().waitFor({ state: "detached" });
    }

    /**
     * The storefront page as it is, at desktop and at phone width: a screenshot at each, and every
     * problem found (`cards`: how many saved-item cards it must show).
     */
    async function lookAt(name: string, cards: number): Promise<string[]> {
      const problems: string[] = [];
      for (const [width, viewport] of [
        ["", DESKTOP],
        ["-mobile", PHONE],
      ] as const) {
        await page.setViewportSize(viewport);
        await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
        await screenshot(page, `storefront-${name}${width}`);
        const at = `${name} at ${viewport.width}px: `;
        const shown = await page.evaluate(cardProblems, {
          card: CARD,
          title: CARD_TITLE,
          image: CARD_IMAGE,
          untitled: UNTITLED,
        });
        if (shown.count !== cards) problems.push(`${at}${shown.count} saved-item cards shown, not ${cards}`);
        problems.push(...shown.problems.map((problem) => at + problem));
        problems.push(...(await page.evaluate(layoutProblems, APP_PARTS)).map((problem) => at + problem));
        problems.push(...(await axeViolations(page, APP_PARTS)).map((problem) => at + problem));
      }
      await page.setViewportSize(DESKTOP);
      return problems;
    }

    const login = (customer: string, returnUrl: string) =>
      open(`/account/login?customer=${customer}&return_url=${returnUrl}`);
    const heart = (handle: string) => page.locator(`li.product-card:has(a[href="/products/${handle}"]) .si-heart`);
    const listBlock = () => page.locator("[data-si=list]");

    /** Saves from the collection page's hearts, as a shopper does: the theme stores its snapshot with each. */
    async function saveWithHearts(handles: string[]) {
      await open("/collections/all");
      for (const handle of handles) {
        await heart(handle).click();
        await expect.poll(() => heart(handle).getAttribute("aria-pressed")).toBe("true");
      }
    }

    /** A call of the logged-in shopper's app proxy from the page, as the theme's script makes it. */
    const fromPage = (operation: string, body: unknown) =>
      page.evaluate(
        async ({ operation, body }) =>
          (
            await fetch(`/apps/saved-items/api/${operation}`, {
              method: "POST",
              headers: { "Content-Type": "application/json" },
              body: JSON.stringify(body),
            })
          ).json(),
        { operation, body },
      );

    test("an empty list", async () => {
      await login("1001", "/pages/saved-items");
      await expect.poll(() => listBlock().getAttribute("data-state")).toBe("empty");
      expect(await lookAt("empty", 0)).toEqual([]);
    });

    test("items saved with the theme's hearts", async () => {
      await saveWithHearts(["linen-shirt", "wool-beanie", "ceramic-mug"]);
      await open("/pages/saved-items");
      await expect.poll(() => listBlock().getAttribute("data-state")).toBe("ready");
      expect(await lookAt("items", 3)).toEqual([]);
    });

    test("named lists: the list manager, its new-list form, rename, delete, a failed delete and a switch", async () => {
      expect((await fromPage("create-list", { name: "Birthday gifts for my sister" })).ok).toBe(true);
      // A list a save made, never named: the picker has only its key to show.
      const beanie = { context: "holiday", entityType: "product", entityGid: "gid://shopify/Product/8103" };
      expect((await fromPage("save", { ...beanie, source: "screens" })).ok).toBe(true);
      await open("/pages/saved-items?s.manage_lists=true");
      await expect.poll(() => page.getByRole("combobox", { name: "List" }).locator("option").count()).toBe(3);
      const problems = await lookAt("list-manager", 3);
      const button = (name: string) => listBlock().getByRole("button", { name, exact: true });
      await button("New list").click();
      problems.push(...(await lookAt("list-manager-new-list", 3)));
      await button("Cancel").click();
      await button("Rename").click();
      problems.push(...(await lookAt("list-manager-rename", 3)));
      await button("Cancel").click();
      await button("Delete list").click();
      problems.push(...(await lookAt("list-manager-delete", 3)));
      await page.route("**/apps/saved-items/api/delete-list", (route) =>
        route.fulfill(refusal(500, "INTERNAL_ERROR", "Something broke", false)),
      );
      await button("Delete").click();
      await expect.poll(() => listBlock().locator(".si-lists-said").textContent()).toMatch(/couldn't be deleted/);
      await page.unroute("**/apps/saved-items/api/delete-list");
      problems.push(...(await lookAt("list-manager-delete-failed", 3)));
      await page.getByRole("combobox", { name: "List" }).selectOption("holiday");
      await expect.poll(() => listBlock().locator(".si-items > li").count()).toBe(1);
      expect([...problems, ...(await lookAt("list-manager-switched", 1))]).toEqual([]);
    });

    test("the cart block: the cart's lines and a line saved for later", async () => {
      const added = await page.evaluate(
        async () =>
          (
            await fetch("/cart/add.js", {
              method: "POST",
              headers: { "Content-Type": "application/json" },
              body: JSON.stringify({
                items: [
                  { id: 91013, quantity: 2 },
                  { id: 91021, quantity: 1 },
                ],
              }),
            })
          ).status,
      );
      expect(added).toBe(200);
      await open("/cart");
      await page.getByRole("button", { name: "Save for later: Canvas Tote" }).click();
      await expect.poll(() => page.locator("[data-si=cart] [role=status]").textContent()).toBe("Saved to your list.");
      expect(await lookAt("cart", 1)).toEqual([]);
    });

    test("items saved without snapshots, through the headless API", async () => {
      const exchange = await fetch(`${sandbox.url}/api/headless/auth/exchange`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ shop: DEMO, customerAccountAccessToken: "sandbox-cat-1002" }),
      });
      const { authorization } = (await exchange.json()).data as { authorization: string };
      for (const item of BARE_ITEMS) {
        const response = await fetch(`${sandbox.url}/api/headless/save`, {
          method: "POST",
          headers: { Authorization: authorization, "Content-Type": "application/json" },
          body: JSON.stringify({ context: "wishlist", source: "headless", ...item }),
        });
        expect(response.status).toBe(200);
      }
      await login("1002", "/pages/saved-items");
      await expect.poll(() => listBlock().getAttribute("data-state")).toBe("ready");
      expect(await lookAt("items-without-snapshots", BARE_ITEMS.length)).toEqual([]);
    });

    test("a shared list, opened logged out: three items saved by the theme, one through the API", async () => {
      const shop = { shop: DEMO, customer: "1001" };
      const bare = await callSandboxProxy(sandbox.url, "/proxy/api/save", {
        ...shop,
        body: { context: "wishlist", source: "api", entityType: "product", entityGid: "gid://shopify/Product/8105" },
      });
      expect(bare.status).toBe(200);
      const shared = await callSandboxProxy(sandbox.url, "/proxy/api/share-create", {
        ...shop,
        body: { context: "wishlist", displayName: "Ada" },
      });
      expect(shared.status).toBe(200);
      await page.goto("/account/logout?return_url=/collections/all");
      // The link is found by search, which the platform updates a moment late.
      await expect.poll(async () => (await page.goto(shared.body.data.path))?.status()).toBe(200);
      expect(await lookAt("shared", 4)).toEqual([]);
    });

    test("saving paused: the shop's budget spent with overage off, the list shown from the device, read-only", async () => {
      await page.goto(`/collections/all?shop=${PAUSED_SHOP}`);
      await login(PAUSED_CUSTOMER, "/collections/all");
      await saveWithHearts(["linen-shirt", "canvas-tote"]);
      await open("/pages/saved-items");
      await expect.poll(() => listBlock().getAttribute("data-state")).toBe("ready");
      // Other shoppers spend what is left of the month's budget.
      let refused = false;
      for (let customer = 6100; customer < 6150 && !refused; customer++) {
        const answer = await callSandboxProxy(sandbox.url, "/proxy/api/is-saved", {
          shop: PAUSED_SHOP,
          customer: String(customer),
          query: { context: "wishlist", entityType: "product", entityGid: "gid://shopify/Product/8101" },
        });
        refused = answer.body.error?.code === "PLAN_LIMIT_REACHED";
      }
      expect(refused).toBe(true);
      await open("/pages/saved-items");
      await page.locator("[data-si=list][data-paused]").waitFor();
      const problems = await lookAt("paused", 2);
      await open("/products/linen-shirt");
      await page.locator("[data-si=button][data-paused]").waitFor();
      expect([...problems, ...(await lookAt("paused-product-page", 0))]).toEqual([]);
    });

    /** Runs in the page: how far the budget banner's edges are from those of the page's content below it. */
    const bannerOffset = () => {
      const content = [...document.querySelectorAll(".Polaris-Page")].at(-1);
      // The frame's banner is the one outside the page's own content (whose cards have banners too).
      const banner = [...document.querySelectorAll(".Polaris-Banner")]
        .find((candidate) => !content?.contains(candidate))
        ?.getBoundingClientRect();
      if (!banner || !content) return null;
      const box = content.getBoundingClientRect();
      const style = getComputedStyle(content);
      return {
        left: Math.round(banner.left - (box.left + parseFloat(style.paddingLeft))),
        right: Math.round(box.right - parseFloat(style.paddingRight) - banner.right),
      };
    };

    describe.each(BUDGET_STATES)("the admin, $name", ({ slug, expected }) => {
      let admin: Page;
      beforeAll(async () => {
        admin = await adminPage(browser, DESKTOP);
      });
      afterAll(() => admin?.close());

      test.each(ADMIN_PAGES)(
        "$name: the state's banner, in line with the page, nothing overflowing, 0 axe violations",
        async ({ name, path: pagePath }) => {
          await admin.goto(await adminUrl(sandbox.url, pagePath, `budget-${slug}`), { waitUntil: "load" });
          await hydrated(admin);
          await screenshot(admin, `admin-${slug}-${name.toLowerCase()}`);
          const problems: string[] = [];
          const text = await admin.locator("body").innerText();
          for (const { title } of BUDGET_STATES.map((state) => state.expected))
            if (title && text.includes(title) !== (title === expected.title))
              problems.push(`the banner "${title}" is ${text.includes(title) ? "shown" : "missing"}`);
          const offset = await admin.evaluate(bannerOffset);
          if (offset && (offset.left !== 0 || offset.right !== 0))
            problems.push(`the banner is out of line with the page: ${JSON.stringify(offset)} px`);
          problems.push(...(await admin.evaluate(layoutProblems, "body")));
          problems.push(...(await axeViolations(admin)));
          expect(problems).toEqual([]);
        },
      );
    });
  },
);
