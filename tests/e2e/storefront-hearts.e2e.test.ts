// Issue 42, item 4, in a real browser on the sandbox storefront: the hearts of the card hearts embed
// agree with the list whichever channel saved the item and however a card names its product (the
// Ceramic Mug's card has only its /products/<handle> link), a heart's click answered 409
// DUPLICATE_SAVE shows what the list holds, and a product and a variant of it saved both read as
// two different rows on the Saved items page. Saves "elsewhere" go through the headless channel,
// without a snapshot, as a headless backend sends them.
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page, Response } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { repoRoot } from "@saved-items/sandbox/config";
import { startSandbox, type RunningSandbox } from "@saved-items/sandbox/sandbox-process";
import { browserMissing, browserTestTitle, openBrowser } from "../support/chromium";

const ARTIFACTS = path.join(repoRoot, "tests/.artifacts");
const SHOP = "demo.myshopify.com";
const CUSTOMER = "1002";
const MUG = "gid://shopify/Product/8104";

describe.skipIf(browserMissing)(browserTestTitle("card hearts and rows agree with the list, in Chromium"), () => {
  let sandbox: RunningSandbox;
  let page: Page;
  let browser: Awaited<ReturnType<typeof openBrowser>>;
  let authorization: string;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    sandbox = await startSandbox();
    browser = await openBrowser(sandbox.url);
    ({ page } = browser);
    const exchange = await fetch(new URL("/api/headless/auth/exchange", sandbox.url), {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ shop: SHOP, customerAccountAccessToken: `sandbox-cat-${CUSTOMER}` }),
    });
    authorization = (await exchange.json()).data.authorization;
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await sandbox?.stop();
  }, 30_000);

  /** The customer's headless backend: an operation on the direct API, no snapshot with a save. */
  async function headless(operation: string, body?: object) {
    const response = await fetch(new URL(`/api/headless/${operation}`, sandbox.url), {
      method: body ? "POST" : "GET",
      headers: { Authorization: authorization, ...(body ? { "Content-Type": "application/json" } : {}) },
      body: body && JSON.stringify(body),
    });
    expect(response.status).toBe(200);
    return (await response.json()).data;
  }
  const savedElsewhere = (entityType: string, entityGid: string) =>
    headless("save", { context: "wishlist", entityType, entityGid, source: "headless-backend" });
  const listedElsewhere = async (): Promise<string[]> =>
    (await headless("list?context=wishlist&limit=100")).items.map((item: { entityGid: string }) => item.entityGid);

  async function open(url: string) {
    await page.goto(url);
    await page.locator("[data-si]:not([data-si-ready])").first().waitFor({ state: "detached" });
  }
  const heart = (handle: string) => page.locator(`li.product-card:has(a[href="/products/${handle}"]) .si-heart`);
  const toast = () => page.locator("[data-si=cards] [role=status]").textContent();
  const shot = (name: string) => page.screenshot({ path: path.join(ARTIFACTS, `hearts-${name}.png`), fullPage: true });

  /** The app proxy's answers (status and operation) and the product lookups the page makes until stop(). */
  function recordAnswers() {
    const answers: string[] = [];
    const listener = (response: Response) => {
      const url = new URL(response.url());
      if (url.pathname.startsWith("/apps/saved-items/") || url.pathname.endsWith(".js"))
        answers.push(`${response.status()} ${url.pathname.replace("/apps/saved-items/api/", "")}`);
    };
    page.on("response", listener);
    return { answers, stop: () => page.off("response", listener) };
  }

  test("a product saved headless, without a snapshot: its card found by its link shows saved, and one click unsaves it", async () => {
    await savedElsewhere("product", MUG);
    await page.goto(`/account/login?customer=${CUSTOMER}&return_url=/collections/all`);
    await page.locator("[data-si]:not([data-si-ready])").first().waitFor({ state: "detached" });
    // The mug's card has no data-product-id: only its /products/ceramic-mug link names it.
    expect(
      await page.locator('li.product-card:has(a[href="/products/ceramic-mug"])').getAttribute("data-product-id"),
    ).toBeNull();
    expect(await heart("ceramic-mug").getAttribute("aria-pressed")).toBe("true");
    expect(await heart("canvas-tote").getAttribute("aria-pressed")).toBe("false");
    await shot("1-saved-elsewhere");

    const proxy = recordAnswers();
    await heart("ceramic-mug").click();
    await expect.poll(toast).toBe("Removed from your list.");
    expect(await heart("ceramic-mug").getAttribute("aria-pressed")).toBe("false");
    proxy.stop();
    // One remove, answered 200: no save, no 409, no lookup of the product by its handle.
    expect(proxy.answers).toEqual(["200 remove"]);
    expect(await listedElsewhere()).toEqual([]);

    // Saved again from the card: the list has it again.
    await heart("ceramic-mug").click();
    await expect.poll(toast).toBe("Saved to your list.");
    expect(await heart("ceramic-mug").getAttribute("aria-pressed")).toBe("true");
    expect(await listedElsewhere()).toEqual([MUG]);
  });

  test("saved headless after this session read its list: the click answered 409 shows saved and says it already was", async () => {
    await savedElsewhere("product", "gid://shopify/Product/8103");
    await open("/collections/all"); // the state this session stored is fresh: not read again
    expect(await heart("wool-beanie").getAttribute("aria-pressed")).toBe("false");
    const proxy = recordAnswers();
    await heart("wool-beanie").click();
    await expect.poll(toast).toBe("Already in your list.");
    proxy.stop();
    expect(proxy.answers).toEqual(["409 save"]);
    expect(await heart("wool-beanie").getAttribute("aria-pressed")).toBe("true");
    // The next click unsaves it: the page now agrees with the list.
    await heart("wool-beanie").click();
    await expect.poll(toast).toBe("Removed from your list.");
    expect(await listedElsewhere()).toEqual([MUG]);
  });

  test("a product and its variants saved both: the variants' rows say they are variants, and are named where they have a name", async () => {
    await savedElsewhere("product", "gid://shopify/Product/8102");
    await savedElsewhere("variant", "gid://shopify/ProductVariant/91021"); // the tote's only variant
    await savedElsewhere("variant", "gid://shopify/ProductVariant/91012"); // Linen Shirt, M
    await open("/pages/saved-items");
    const rows = page.locator("[data-si=list] .si-item");
    // As a screen reader reads them: each link named with its variant's tag, each remove button too.
    expect(await page.locator("[data-si=list] .si-items").ariaSnapshot()).toBe(
      [
        "- list:",
        ...[
          ["Linen Shirt - M Variant", "/products/linen-shirt?variant=91012", "$49.00", "Linen Shirt - M (Variant)"],
          ["Canvas Tote Variant", "/products/canvas-tote?variant=91021", "$25.00", "Canvas Tote (Variant)"],
          ["Canvas Tote", "/products/canvas-tote", "$25.00", "Canvas Tote"],
          ["Ceramic Mug", "/products/ceramic-mug", "$16.00", "Ceramic Mug"],
        ].flatMap(([link, url, price, remove]) => [
          "  - listitem:",
          `    - link "${link}":`,
          `      - /url: ${url}`,
          `    - text: ${price}`,
          `    - 'button "Remove: ${remove}"': Remove`,
        ]),
      ].join("\n"),
    );
    expect(await rows.locator(".si-kind").allTextContents()).toEqual(["Variant", "Variant"]);
    await shot("2-product-and-variant-rows");

    // The product's heart is the product's: removing the variant's row leaves it saved.
    await page.getByRole("button", { name: "Remove: Canvas Tote (Variant)" }).click();
    await expect.poll(() => rows.count()).toBe(3);
    // Read afresh (the saves above were made elsewhere while this session's state was fresh).
    await page.evaluate((shop) => localStorage.removeItem(`saved-items:state:${shop}`), SHOP);
    await open("/collections/all");
    expect(await heart("canvas-tote").getAttribute("aria-pressed")).toBe("true");
    expect(await heart("linen-shirt").getAttribute("aria-pressed")).toBe("false");
  });
});
