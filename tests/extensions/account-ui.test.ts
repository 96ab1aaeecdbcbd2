// @vitest-environment happy-dom
// The customer-account extensions as a customer sees them: SavedItemsPage and ProfileBlock rendered
// by Preact into happy-dom's document, with a fake `shopify` global (translations from the
// extension's own locale file; a missing key fails the test) and a scripted service behind fetch. The platform's s-* elements are
// plain custom elements here, so what is asserted is their text, headings and labels.
import { render } from "preact";
import { act } from "preact/test-utils";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { callsSettled } from "../../extensions/shared/in-flight";
import { installFakePlatform, type FakePlatform } from "../support/extensions/account-platform";
import {
  APP,
  CREATE_LIST,
  DELETE_LIST,
  EXCHANGE,
  FakeService,
  LIST,
  LISTS,
  REMOVE,
  RENAME_LIST,
  SHARE_CREATE,
  SHARE_REVOKE,
  fail,
  grant,
  ok,
} from "../support/extensions/service";

let service: FakeService;
let platform: FakePlatform;

beforeEach(() => {
  service = new FakeService();
  service.on(EXCHANGE, () => grant(Date.now()));
  service.on(LISTS, () => listsOf([]));
  vi.stubGlobal("fetch", service.fetch);
  vi.stubEnv("SAVED_ITEMS_APP_URL", APP);
  platform = installFakePlatform();
});

afterEach(() => {
  render(null, document.body);
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

const item = (id: string, snapshot?: Record<string, string>, savedAt?: string) => ({
  id: `gid://shopify/Metaobject/${id}`,
  entityType: "product",
  entityGid: `gid://shopify/Product/${id}`,
  status: "active",
  ...(savedAt ? { savedAt } : {}),
  ...(snapshot ? { snapshot } : {}),
});
const listOf = (items: ReturnType<typeof item>[], endCursor: string | null = null) =>
  ok({ items, pageInfo: { hasNextPage: endCursor !== null, endCursor } });

const aList = (context: string, name: string | null, itemCount: number) => ({
  context,
  name,
  itemCount,
  createdAt: "2026-07-01T12:00:00Z",
  updatedAt: "2026-07-01T12:00:00Z",
});
const listsOf = (lists: ReturnType<typeof aList>[]) =>
  ok({ lists, pageInfo: { hasNextPage: false, endCursor: lists.length ? "end" : null } });

const BOOTS = item(
  "1",
  { title: "Boots", price: "€120,00", image: "https://cdn.example/boots.png" },
  "2026-07-01T12:00:00Z",
);
const SCARF = item("2", { title: "Scarf" });

/**
 * Runs an extension target's entry as the platform does (its default export renders into
 * document.body). Imported by a computed path on purpose: the extension is its own TypeScript
 * program, whose typings declare a global `shopify` that clashes with App Bridge's in the app's.
 */
async function show(entry: "SavedItemsPage" | "ProfileBlock") {
  const module = `../../extensions/saved-items-account/src/${entry}.tsx`;
  const { default: start } = (await import(/* @vite-ignore */ module)) as { default: () => Promise<void> };
  await start();
}
/** Shown, its effects run (act), and the service calls they started settled: all it will ever send unprompted. */
async function showAndSettle(entry: "SavedItemsPage" | "ProfileBlock") {
  await act(() => show(entry));
  await callsSettled();
}
const showPage = () => show("SavedItemsPage");
const showBlock = () => show("ProfileBlock");

const body = () => document.body;
const text = () => body().textContent!.replace(/\s+/g, " ").trim();
const all = (selector: string) => [...body().querySelectorAll(selector)];
const spinner = () => body().querySelector("s-spinner");
const banner = () => body().querySelector("s-banner");
const buttonNamed = (name: string) =>
  all("s-button").find((button) => button.textContent!.trim() === name) as HTMLElement | undefined;
const rowTitles = () => all("s-text[type=strong]").map((title) => title.textContent);
const eventually = (assertion: () => void) => vi.waitFor(assertion, { interval: 10 });

describe("SavedItemsPage", () => {
  test("loading, then the list: title, price, image and save date of each item, newest first", async () => {
    service.on(LIST, () => listOf([BOOTS, SCARF]));
    await showPage();
    expect(body().querySelector("s-page")!.getAttribute("heading")).toBe("Saved items");
    expect(spinner()!.getAttribute("accessibilitylabel")).toBe("Loading your saved items");

    await eventually(() => expect(rowTitles()).toEqual(["Boots", "Scarf"]));
    expect(spinner()).toBeNull();
    expect(text()).toContain("€120,00");
    expect(text()).toContain("Saved Jul 1, 2026");
    expect(body().querySelector("s-product-thumbnail")!.getAttribute("src")).toBe("https://cdn.example/boots.png");
    expect(all("s-button[accessibilitylabel]").map((button) => button.getAttribute("accessibilitylabel"))).toEqual([
      "Remove Boots from saved items",
      "Remove Scarf from saved items",
    ]);
    expect(buttonNamed("Load more")).toBeUndefined();
    const [list] = service.to(LIST);
    expect(Object.fromEntries(list!.url.searchParams)).toEqual({ context: "wishlist", limit: "20" });
    expect(list!.headers.get("authorization")).toMatch(/^Bearer service-token-/);
  });

  test("the merchant's list name setting picks the list", async () => {
    installFakePlatform({ list_context: "gifts" });
    service.on(LIST, () => listOf([]));
    await showPage();
    await eventually(() => expect(service.to(LIST)).toHaveLength(1));
    expect(service.to(LIST)[0]!.url.searchParams.get("context")).toBe("gifts");
  });

  test("an item saved without a snapshot shows its type and id", async () => {
    service.on(LIST, () => listOf([item("77")]));
    await showPage();
    await eventually(() => expect(rowTitles()).toEqual(["Product 77"]));
    expect(body().querySelector("s-product-thumbnail")).toBeNull();
  });

  test("an item saved without a snapshot shows its product card's title and image", async () => {
    const card = {
      availability: "available",
      title: "Ceramic Mug",
      url: "/products/ceramic-mug",
      image: "https://cdn.shopify.com/s/files/1/mug.png",
      price: { amount: "16.00", currencyCode: "USD" },
      variantGid: "gid://shopify/ProductVariant/91041",
      priceDropped: false,
    };
    service.on(LIST, () => listOf([{ ...item("78"), product: card } as ReturnType<typeof item>]));
    await showPage();
    await eventually(() => expect(rowTitles()).toEqual(["Ceramic Mug"]));
    expect(body().querySelector("s-product-thumbnail")?.getAttribute("src")).toBe(card.image);
    expect(text()).toContain("$16.00");
  });

  test("empty: says so, with no spinner and no rows", async () => {
    service.on(LIST, () => listOf([]));
    await showPage();
    await eventually(() => expect(text()).toContain("You haven't saved anything yet."));
    expect(spinner()).toBeNull();
    expect(rowTitles()).toEqual([]);
  });

  test("'Load more' follows the cursor and appends the next page", async () => {
    service.on(LIST, (request) =>
      request.url.searchParams.get("cursor") === "c1" ? listOf([SCARF]) : listOf([BOOTS], "c1"),
    );
    await showPage();
    await eventually(() => expect(buttonNamed("Load more")).toBeDefined());
    buttonNamed("Load more")!.click();
    await eventually(() => expect(rowTitles()).toEqual(["Boots", "Scarf"]));
    expect(buttonNamed("Load more")).toBeUndefined();
  });

  test("a failure the service marks retryable: an error banner with 'Try again', which reloads", async () => {
    vi.spyOn(Math, "random").mockReturnValue(0); // the shortest backoff between the 3 attempts
    service.on(
      LIST,
      fail(502, "PLATFORM_UPSTREAM_ERROR", true),
      fail(502, "PLATFORM_UPSTREAM_ERROR", true),
      fail(502, "PLATFORM_UPSTREAM_ERROR", true),
      listOf([BOOTS]),
    );
    await showPage();
    await eventually(() => expect(banner()?.getAttribute("heading")).toBe("Saved items couldn't be loaded"));
    expect(banner()!.getAttribute("tone")).toBe("critical");
    expect(text()).toContain("Something went wrong on our side. Please try again in a moment.");
    expect(service.to(LIST)).toHaveLength(3);

    buttonNamed("Try again")!.click();
    await eventually(() => expect(rowTitles()).toEqual(["Boots"]));
    expect(banner()).toBeNull();
  });

  test("a failure that waiting will not fix: the reason, and no 'Try again'", async () => {
    service.reset(EXCHANGE, fail(403, "CHANNEL_NOT_ENTITLED"));
    await showPage();
    await eventually(() => expect(text()).toContain("Saved items aren't available in this store's customer account."));
    expect(buttonNamed("Try again")).toBeUndefined();
    expect(service.to(LIST)).toHaveLength(0);
  });

  test("a customer who is not logged in is asked to log in", async () => {
    service.reset(EXCHANGE, fail(401, "CUSTOMER_REQUIRED"));
    await showPage();
    await eventually(() => expect(text()).toContain("Log in to your account to see your saved items."));
  });

  test("not set up (built without SAVED_ITEMS_APP_URL): says so and calls nothing", async () => {
    vi.stubEnv("SAVED_ITEMS_APP_URL", undefined);
    await showAndSettle("SavedItemsPage");
    expect(banner()!.getAttribute("heading")).toBe("Saved items couldn't be loaded");
    expect(text()).toContain("Saved items isn't set up yet. Please try again later.");
    expect(spinner()).toBeNull();
    expect(service.requests).toEqual([]);
  });

  test("remove: the row goes, the service is told, a toast confirms", async () => {
    service.on(LIST, () => listOf([BOOTS, SCARF]));
    service.on(REMOVE, () => ok({ id: BOOTS.id, state: "removed" }));
    await showPage();
    await eventually(() => expect(rowTitles()).toEqual(["Boots", "Scarf"]));

    (all("s-button")[0] as HTMLElement).click();
    await eventually(() => expect(rowTitles()).toEqual(["Scarf"]));
    expect(platform.toasts).toEqual(["Removed from saved items"]);
    expect(service.to(REMOVE)[0]!.body).toEqual({
      context: "wishlist",
      entityType: "product",
      entityGid: "gid://shopify/Product/1",
    });
  });

  test("a failed remove keeps the row and says the item couldn't be removed", async () => {
    service.on(LIST, () => listOf([BOOTS]));
    service.on(REMOVE, fail(402, "PLAN_LIMIT_REACHED"));
    await showPage();
    await eventually(() => expect(rowTitles()).toEqual(["Boots"]));

    (all("s-button")[0] as HTMLElement).click();
    await eventually(() => expect(banner()?.getAttribute("heading")).toBe("That item couldn't be removed"));
    expect(text()).toContain("Something went wrong. Please reload the page.");
    expect(rowTitles()).toEqual(["Boots"]);
    expect(platform.toasts).toEqual([]);
  });

  test("removing the last shown item loads the next page rather than showing 'empty'", async () => {
    service.on(LIST, (request) =>
      request.url.searchParams.get("cursor") === "c1" ? listOf([SCARF]) : listOf([BOOTS], "c1"),
    );
    service.on(REMOVE, () => ok({ id: BOOTS.id, state: "removed" }));
    await showPage();
    await eventually(() => expect(rowTitles()).toEqual(["Boots"]));
    (all("s-button")[0] as HTMLElement).click();
    await eventually(() => expect(rowTitles()).toEqual(["Scarf"]));
    expect(text()).not.toContain("You haven't saved anything yet.");
  });
});

describe("ProfileBlock", () => {
  const link = () => body().querySelector("s-link")!;

  test("loading, then the count of saved items and a link to the page", async () => {
    service.on(LIST, () => listOf([BOOTS, SCARF, item("3")]));
    await showBlock();
    expect(body().querySelector("s-section")!.getAttribute("heading")).toBe("Saved items");
    expect(spinner()!.getAttribute("accessibilitylabel")).toBe("Loading your saved items");
    expect(link().getAttribute("href")).toBe("extension://saved-items-page");
    expect(link().textContent).toBe("View saved items");

    await eventually(() => expect(text()).toContain("3 saved items"));
    expect(spinner()).toBeNull();
    expect(service.to(LIST)[0]!.url.searchParams.get("limit")).toBe("50");
  });

  test.each([
    [[BOOTS], null, "1 saved item"],
    [[], null, "No saved items yet"],
    [[BOOTS, SCARF], "more", "2+ saved items"],
  ] as const)("%#: a first page of %j (next: %s) reads %j", async (items, next, expected) => {
    service.on(LIST, () => listOf([...items], next));
    await showBlock();
    await eventually(() => expect(text()).toContain(expected));
  });

  test("an error reads as a short reason, and the link stays", async () => {
    service.reset(EXCHANGE, fail(403, "CHANNEL_NOT_ENTITLED"));
    await showBlock();
    await eventually(() => expect(text()).toContain("Saved items aren't available in this store's customer account."));
    expect(link().getAttribute("href")).toBe("extension://saved-items-page");
  });

  test("not set up: no spinner, no request, only the link (the page explains)", async () => {
    vi.stubEnv("SAVED_ITEMS_APP_URL", undefined);
    await showAndSettle("ProfileBlock");
    expect(spinner()).toBeNull();
    expect(text()).toBe("View saved items");
    expect(service.requests).toEqual([]);
  });
});

describe("SavedItemsPage sharing", () => {
  const LINK = {
    token: "t".repeat(43),
    path: `/apps/saved-items/shared/${"t".repeat(43)}`,
    url: `https://demo.myshopify.com/apps/saved-items/shared/${"t".repeat(43)}`,
    displayName: "Ana",
  };
  const nameField = () => body().querySelector("s-text-field") as HTMLElement & { value: string };

  test("an empty list offers no sharing", async () => {
    service.on(LIST, () => listOf([]));
    await showPage();
    await eventually(() => expect(text()).toContain("You haven't saved anything yet."));
    expect(buttonNamed("Create share link")).toBeUndefined();
  });

  test("create with the optional name, then the link with Copy, which copies it and says so", async () => {
    service.on(LIST, () => listOf([BOOTS]));
    service.on(SHARE_CREATE, () => ok(LINK));
    await showPage();
    await eventually(() => expect(buttonNamed("Create share link")).toBeDefined());
    const field = nameField();
    // Rendered before act returns: the button's handler reads that render's name.
    await act(() => {
      field.value = "Ana";
      field.dispatchEvent(new Event("input"));
    });
    buttonNamed("Create share link")!.click();
    await eventually(() => expect(text()).toContain(LINK.url));
    expect(service.to(SHARE_CREATE)[0]!.body).toEqual({ context: "wishlist", displayName: "Ana" });
    const copy = buttonNamed("Copy link")!;
    expect(copy.getAttribute("command")).toBe("--copy");
    const clipboard = body().querySelector(`#${copy.getAttribute("commandfor")}`) as HTMLElement & { text: string };
    expect(clipboard.localName).toBe("s-clipboard-item");
    expect(clipboard.text ?? clipboard.getAttribute("text")).toBe(LINK.url);
    clipboard.dispatchEvent(new Event("copy"));
    expect(platform.toasts).toEqual(["Link copied"]);
  });

  test("no name sends none; Stop sharing revokes and says whether a link was active", async () => {
    service.on(LIST, () => listOf([BOOTS]));
    service.on(SHARE_CREATE, () => ok({ ...LINK, displayName: null }));
    service.on(
      SHARE_REVOKE,
      () => ok({ revoked: true }),
      () => ok({ revoked: false }),
    );
    await showPage();
    await eventually(() => expect(buttonNamed("Create share link")).toBeDefined());
    buttonNamed("Create share link")!.click();
    await eventually(() => expect(text()).toContain(LINK.url));
    expect(service.to(SHARE_CREATE)[0]!.body).toEqual({ context: "wishlist" });
    buttonNamed("Stop sharing")!.click();
    await eventually(() => expect(platform.toasts).toEqual(["The share link no longer works"]));
    expect(text()).not.toContain(LINK.url);
    expect(buttonNamed("Create share link")).toBeDefined();
    buttonNamed("Stop sharing")!.click();
    await eventually(() => expect(platform.toasts).toHaveLength(2));
    expect(platform.toasts[1]).toBe("This list wasn't shared");
  });

  test("a failed share says so and keeps the form", async () => {
    service.on(LIST, () => listOf([BOOTS]));
    service.on(SHARE_CREATE, () => fail(404, "NOT_FOUND"));
    await showPage();
    await eventually(() => expect(buttonNamed("Create share link")).toBeDefined());
    buttonNamed("Create share link")!.click();
    await eventually(() =>
      expect(all("s-banner").map((b) => b.getAttribute("heading"))).toContain("Sharing didn't work"),
    );
    expect(buttonNamed("Create share link")).toBeDefined();
  });
});

describe("SavedItemsPage lists", () => {
  const WISHLIST = aList("wishlist", null, 2);
  const GIFTS = aList("gifts", "Gifts for Ana", 1);
  const field = (label: string) =>
    all("s-text-field").find((element) => element.getAttribute("label") === label) as HTMLElement & { value: string };
  /** Preact gives an unknown custom element its value as an attribute, and the test types into the property. */
  const valueOf = (label: string) => field(label)?.value ?? field(label)?.getAttribute("value");
  async function type(label: string, value: string) {
    // Typed into the page as loaded (its lists asked for, from an effect after the first paint, and
    // every call settled), and rendered before act returns: the button's handler reads that render's value.
    await eventually(() => expect(service.to(LISTS)).not.toHaveLength(0));
    await callsSettled();
    const target = field(label);
    await act(() => {
      target.value = value;
      target.dispatchEvent(new Event("input"));
    });
  }

  test("shows the customer's lists with their counts; Open shows another list's items", async () => {
    service.reset(LISTS, () => listsOf([GIFTS, WISHLIST]));
    service.on(LIST, (request) =>
      request.url.searchParams.get("context") === "gifts" ? listOf([SCARF]) : listOf([BOOTS]),
    );
    await showPage();
    await eventually(() => expect(text()).toContain("Gifts for Ana"));
    expect(text()).toContain("1 item");
    // The default list, never named, is called as the page is.
    expect(text()).toContain("Saved items2 items");
    expect(buttonNamed("Open now")).toBeDefined();
    buttonNamed("Open")!.click();
    await eventually(() => expect(rowTitles()).toEqual(["Scarf"]));
    expect(service.to(LIST).at(-1)!.url.searchParams.get("context")).toBe("gifts");
    expect(valueOf("List name")).toBe("Gifts for Ana");
  });

  test("create: the name is sent, the new list is added and opened, a toast confirms", async () => {
    service.on(LIST, () => listOf([]));
    service.on(CREATE_LIST, () => ok(aList("list-0123456789abcdef", "Birthday", 0)));
    await showPage();
    await eventually(() => expect(buttonNamed("Create list")).toBeDefined());
    await type("New list name", "  Birthday ");
    buttonNamed("Create list")!.click();
    await eventually(() => expect(platform.toasts).toEqual(["List created"]));
    expect(service.to(CREATE_LIST)[0]!.body).toEqual({ name: "Birthday", context: expect.stringMatching(/^list-/) });
    expect(text()).toContain("Birthday0 items");
    await eventually(() =>
      expect(service.to(LIST).at(-1)!.url.searchParams.get("context")).toBe("list-0123456789abcdef"),
    );
  });

  test("past the plan's lists, create says it could not and keeps the form", async () => {
    service.on(LIST, () => listOf([]));
    service.on(CREATE_LIST, () => fail(402, "PLAN_LIMIT_REACHED"));
    await showPage();
    await eventually(() => expect(buttonNamed("Create list")).toBeDefined());
    await type("New list name", "One more");
    buttonNamed("Create list")!.click();
    await eventually(() =>
      expect(all("s-banner").map((b) => b.getAttribute("heading"))).toContain("The list couldn't be created"),
    );
    expect(valueOf("New list name")).toBe("One more");
  });

  test("rename and delete the open list; after a delete the default list opens", async () => {
    service.reset(LISTS, () => listsOf([GIFTS, WISHLIST]));
    service.on(LIST, () => listOf([BOOTS]));
    service.on(RENAME_LIST, () => ok({ ...GIFTS, name: "Presents" }));
    service.on(DELETE_LIST, () => ok({ context: "gifts", deleted: true, removedItems: 1 }));
    await showPage();
    await eventually(() => expect(buttonNamed("Open")).toBeDefined());
    buttonNamed("Open")!.click();
    await eventually(() => expect(valueOf("List name")).toBe("Gifts for Ana"));
    await type("List name", "Presents");
    buttonNamed("Rename")!.click();
    await eventually(() => expect(platform.toasts).toEqual(["List renamed"]));
    expect(service.to(RENAME_LIST)[0]!.body).toEqual({ context: "gifts", name: "Presents" });
    expect(text()).toContain("Presents");
    buttonNamed("Delete list")!.click();
    await eventually(() => expect(platform.toasts).toHaveLength(2));
    expect(platform.toasts[1]).toBe("List deleted, 1 item removed");
    expect(service.to(DELETE_LIST)[0]!.body).toEqual({ context: "gifts" });
    expect(text()).not.toContain("Presents");
    await eventually(() => expect(service.to(LIST).at(-1)!.url.searchParams.get("context")).toBe("wishlist"));
  });

  test("removing an item lowers its list's count", async () => {
    service.reset(LISTS, () => listsOf([WISHLIST]));
    service.on(LIST, () => listOf([BOOTS, SCARF]));
    service.on(REMOVE, () => ok({ id: BOOTS.id, state: "removed" }));
    await showPage();
    await eventually(() => expect(rowTitles()).toEqual(["Boots", "Scarf"]));
    buttonNamed("Remove")!.click();
    await eventually(() => expect(text()).toContain("1 item"));
  });
});
