// @vitest-environment happy-dom
// The point-of-sale extension as staff see it: CustomerBlock rendered by Preact into happy-dom's
// document, with a fake `shopify` global (the customer chosen in POS, POS's session token, its
// product search and cart, translations from the extension's own locale file) and a scripted
// service behind fetch; then its configuration, and its bundle built as the CLI builds it.
import { readFileSync } from "node:fs";
import path from "node:path";
import { render } from "preact";
import { act } from "preact/test-utils";
import { parse } from "smol-toml";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { callsSettled } from "../../extensions/shared/in-flight";
import { cliBundle } from "../support/extensions/cli-bundle";
import { APP, FakeService, fail, ok } from "../support/extensions/service";
import {
  POS_EXTENSION_DIR,
  POS_LIST,
  aVariant,
  installFakePos,
  type FakePosSetup,
} from "../support/extensions/pos-platform";

let service: FakeService;

beforeEach(() => {
  service = new FakeService();
  vi.stubGlobal("fetch", service.fetch);
  vi.stubEnv("SAVED_ITEMS_APP_URL", APP);
});

afterEach(() => {
  render(null, document.body);
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
});

const item = (entityType: string, id: number, snapshot?: Record<string, string>) => ({
  id: `gid://shopify/Metaobject/${entityType}-${id}`,
  entityType,
  entityGid: `gid://shopify/${entityType === "variant" ? "ProductVariant" : entityType === "product" ? "Product" : "Collection"}/${id}`,
  status: "active",
  ...(snapshot ? { snapshot } : {}),
});
const listOf = (items: ReturnType<typeof item>[], hasNextPage = false) =>
  ok({ items, pageInfo: { hasNextPage, endCursor: hasNextPage ? "next" : null } });

/** Runs the target's entry as POS does (its default export renders into document.body). */
async function showBlock(setup: FakePosSetup = {}) {
  const pos = installFakePos(setup);
  const module = "../../extensions/saved-items-pos/src/CustomerBlock.tsx";
  const { default: start } = (await import(/* @vite-ignore */ module)) as { default: () => Promise<void> };
  await start();
  return pos;
}

const body = () => document.body;
const text = () => body().textContent!.replace(/\s+/g, " ").trim();
const all = (selector: string) => [...body().querySelectorAll(selector)];
const titles = () => all("s-text[type=strong]").map((title) => title.textContent);
const buttons = () => all("s-button") as HTMLElement[];
// Long enough for the shared client's retries of a retryable failure (0.5 s, then 1 s, with jitter).
const eventually = (assertion: () => void) => vi.waitFor(assertion, { interval: 10 });

describe("CustomerBlock", () => {
  test("asks the app for the chosen customer's list with POS's session token, then shows each saved variant and product from POS's catalogue", async () => {
    service.on(POS_LIST, () => listOf([item("variant", 11), item("product", 20), item("collection", 5)]));
    const pos = await showBlock({
      customerId: 1002,
      variants: [aVariant()],
      products: [
        {
          id: 20,
          title: "Scarf",
          featuredImage: "https://cdn.example/scarf.png",
          variants: [aVariant({ id: 21, title: "Default Title", inventoryAtLocation: 0, inventoryPolicy: "DENY" })],
        },
      ],
    });
    expect(text()).toContain("Loading saved items…");
    await eventually(() => expect(titles()).toEqual(["Jacket", "Scarf"]));

    const [request] = service.to(POS_LIST);
    expect(request!.headers.get("Authorization")).toBe("Bearer pos-session-token");
    expect(Object.fromEntries(request!.url.searchParams)).toEqual({
      customerId: "gid://shopify/Customer/1002",
      context: "wishlist",
      limit: "50",
    });
    expect(pos.searches).toEqual({ variants: [[11]], products: [[20]] });
    expect(body().querySelector("s-pos-block")!.getAttribute("heading")).toBe("Saved items");
    expect(text()).toContain("Large / Blue");
    expect(all("s-badge").map((badge) => [badge.textContent, badge.getAttribute("tone")])).toEqual([
      ["In stock", "success"],
      ["Out of stock", "critical"],
    ]);
    expect(all("s-image").map((image) => image.getAttribute("src"))).toEqual([
      "https://cdn.example/jacket-blue.png",
      "https://cdn.example/scarf.png",
    ]);
    // Only the jacket can be sold: the scarf's only variant is out of stock and may not be oversold.
    expect(buttons().map((button) => button.textContent)).toEqual(["Add to cart"]);
  });

  test("Add to cart adds the variant to POS's cart and says so; a refusal says so too", async () => {
    service.on(POS_LIST, () => listOf([item("variant", 11)]));
    const pos = await showBlock({ variants: [aVariant()] });
    await eventually(() => expect(buttons()).toHaveLength(1));
    buttons()[0]!.click();
    await eventually(() => expect(pos.toasts).toEqual(["Jacket added to the cart"]));
    expect(pos.cart).toEqual([{ variantId: 11, quantity: 1 }]);

    render(null, document.body);
    const refused = await showBlock({ variants: [aVariant()], cartFails: true });
    await eventually(() => expect(buttons()).toHaveLength(1));
    buttons()[0]!.click();
    await eventually(() => expect(refused.toasts).toEqual(["Jacket couldn't be added to the cart"]));
  });

  test("a product of several variants asks staff to choose one; an item POS does not sell shows its saved title", async () => {
    service.on(POS_LIST, () =>
      listOf([item("product", 30), item("variant", 99, { title: "Old boots", image: "https://cdn.example/b.png" })]),
    );
    await showBlock({
      products: [
        {
          id: 30,
          title: "Gloves",
          hasInStockVariants: true,
          variants: [aVariant({ id: 31 }), aVariant({ id: 32 })],
        },
      ],
    });
    await eventually(() => expect(titles()).toEqual(["Gloves", "Old boots"]));
    expect(text()).toContain("2 variants: choose one in POS");
    expect(text()).toContain("Not sold in this POS");
    expect(buttons()).toEqual([]);
  });

  test("an item saved without a snapshot that POS's search does not find shows its product card's title", async () => {
    const product = {
      availability: "available",
      title: "Ceramic Mug - Blue",
      url: "/products/ceramic-mug?variant=98",
      image: null,
      price: { amount: "16.00", currencyCode: "USD" },
      variantGid: "gid://shopify/ProductVariant/98",
      priceDropped: false,
    };
    service.on(POS_LIST, () => listOf([{ ...item("variant", 98), product } as ReturnType<typeof item>]));
    await showBlock();
    await eventually(() => expect(titles()).toEqual(["Ceramic Mug - Blue"]));
    expect(text()).not.toContain("ProductVariant");
  });

  test("an empty list says so, and a longer one says only the newest 50 are shown", async () => {
    service.on(POS_LIST, () => listOf([]));
    await showBlock();
    await eventually(() => expect(text()).toContain("This customer hasn't saved anything yet."));

    render(null, document.body);
    service.reset(POS_LIST, listOf([item("variant", 11)], true));
    await showBlock({ variants: [aVariant()] });
    await eventually(() => expect(text()).toContain("Only the 50 newest saved items are shown."));
  });

  test.each([
    [
      "a POS login without the app's permission (no session token)",
      { sessionToken: undefined },
      undefined,
      "Your POS login doesn't have permission to use Saved Items.",
    ],
    [
      "a plan without point of sale",
      {},
      fail(403, "CHANNEL_NOT_ENTITLED"),
      "Saved items at the counter aren't included in this store's plan.",
    ],
    [
      "a refused session token",
      {},
      fail(401, "INVALID_TOKEN"),
      "Your POS login doesn't have permission to use Saved Items.",
    ],
    [
      "an outage, after the retries",
      {},
      fail(502, "PLATFORM_UPSTREAM_ERROR", true),
      "Saved items couldn't be loaded. Please try again in a moment.",
    ],
  ] as const)("%s is explained", async (_, setup, answer, message) => {
    if (answer) service.on(POS_LIST, answer);
    await showBlock({ ...setup });
    await eventually(() => expect(text()).toContain(message));
    expect(buttons()).toEqual([]);
  });

  test("built without the app URL, it says it is not set up and calls nothing", async () => {
    vi.unstubAllEnvs();
    // Its effects run (act), and the service calls they started settled: all it will ever send unprompted.
    await act(async () => {
      await showBlock();
    });
    await callsSettled();
    expect(text()).toContain("Saved items isn't set up yet.");
    expect(service.requests).toEqual([]);
  });
});

interface ExtensionToml {
  api_version: string;
  extensions: { handle: string; type: string; targeting: { target: string; module: string }[] }[];
}

const toml = parse(
  readFileSync(path.join(POS_EXTENSION_DIR, "shopify.extension.toml"), "utf8"),
) as unknown as ExtensionToml;

describe("the package", () => {
  test("one UI extension on the customer details screen's block target, on the API version of the customer-account extensions", () => {
    expect(toml.api_version).toBe("2026-07");
    expect(toml.extensions.map((extension) => [extension.handle, extension.type, extension.targeting])).toEqual([
      [
        "saved-items-pos",
        "ui_extension",
        [{ target: "pos.customer-details.block.render", module: "./src/CustomerBlock.tsx" }],
      ],
    ]);
  });

  test("the bundle, built as the CLI builds it and run as POS runs it, calls the app at the URL given at build time", async () => {
    vi.unstubAllEnvs();
    service.on(POS_LIST, () => listOf([item("variant", 11)]));
    const { target, module } = toml.extensions[0]!.targeting[0]!;
    const code = await cliBundle(POS_EXTENSION_DIR, target, module, {
      SAVED_ITEMS_APP_URL: "https://saved-items.example",
    });
    const pos = installFakePos({ variants: [aVariant()] });
    new Function("process", code)(undefined);
    expect([...pos.targets.keys()]).toEqual([target]);
    await pos.targets.get(target)!();
    await eventually(() => expect(document.body.textContent).toContain("Jacket"));
    expect(service.requests.map((request) => request.url.origin)).toEqual(["https://saved-items.example"]);
    document.documentElement.replaceChild(document.createElement("body"), document.body);
  });
});
