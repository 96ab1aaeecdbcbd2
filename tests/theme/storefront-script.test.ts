// @vitest-environment happy-dom
// The theme script in happy-dom against its blocks' Liquid (the sandbox's liquidjs renderer), the app
// proxy a fake fetch whose answers the tests hold and release. Each `openPage` is a new page view
// (fresh modules and DOM) on the same device: localStorage stays.
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { createThemeRenderer } from "@saved-items/sandbox/storefront/liquid";

const theme = createThemeRenderer({ locale: "en" });
const en = (await import("../../extensions/saved-items-theme/locales/en.default.json")).default.saved_items;

type Answer = { status: number; body: unknown };
type Handler = (url: URL, init: RequestInit) => Answer | Promise<Answer>;
const ok = (data: unknown): Answer => ({ status: 200, body: { ok: true, data } });
const refused = (code: string, message: string, status: number): Answer => ({
  status,
  body: { ok: false, error: { code, message, retryable: false } },
});
const RESET = "2030-01-01T00:00:00.000Z";
const budgetSpent = () =>
  refused(
    "PLAN_LIMIT_REACHED",
    `The Free plan's monthly budget of 1,000 requests is used up; it resets at ${RESET}`,
    402,
  );
const item = (id: number, title: string) => ({
  context: "wishlist",
  entityType: "product",
  entityGid: `gid://shopify/Product/${id}`,
  snapshot: { title, url: `/products/p${id}`, price: "$10.00", handle: `p${id}` },
});
const page = (...items: object[]) => ok({ items, pageInfo: { hasNextPage: false, endCursor: null } });

/** The operations asked, in order ("list", "lists", "batch"…), and the handler answering each. */
let asked: string[] = [];
let handlers: Record<string, Handler> = {};

function fakeFetch(input: string, init: RequestInit = {}) {
  const url = new URL(input, "https://demo.myshopify.com");
  const operation = url.pathname.split("/").pop()!;
  asked.push(operation);
  const handler = handlers[operation];
  if (!handler) throw new Error(`no answer for ${operation}`);
  return Promise.resolve(handler(url, init)).then(({ status, body }) => ({
    status,
    ok: status < 400,
    type: "basic",
    headers: new Headers(),
    text: async () => JSON.stringify(body),
    json: async () => body,
  }));
}

const KINDS: Record<string, string> = {
  "saved-items": "list",
  "save-for-later": "cart",
  "save-button": "button",
  "saved-items-embed": "cards",
};

/** `extra`: the theme's own markup beside the block (the product cards the hearts embed finds). */
async function openPage(block: string, customer: string, settings: Record<string, string> = {}, extra = "") {
  vi.resetModules();
  delete (window as { SavedItems?: unknown }).SavedItems;
  asked = [];
  const { html } = await theme.renderBlock(
    block,
    {
      shop: { permanent_domain: "demo.myshopify.com" },
      customer: customer ? { id: Number(customer) } : undefined,
      routes: { root_url: "/", account_login_url: "/account/login" },
      request: { path: "/pages/saved", locale: { iso_code: "en" } },
      product: { id: 1, handle: "p1", title: "Mug", url: "/products/p1", variants: [] },
      cart: { items: [] },
    },
    settings,
  );
  document.body.innerHTML = html + extra;
  await import(`../../extensions/saved-items-theme-src/entries/${KINDS[block]}.ts`);
  const root = document.querySelector<HTMLElement>("[data-si]")!;
  await vi.waitFor(() => expect(root.hasAttribute("data-si-ready")).toBe(true));
  return root;
}

const titles = (root: HTMLElement) => [...root.querySelectorAll(".si-items li .si-title")].map((a) => a.textContent);
const status = (root: HTMLElement) => root.querySelector("[role=status]")!.textContent;

beforeEach(() => {
  localStorage.clear();
  vi.stubGlobal("fetch", vi.fn(fakeFetch));
  // happy-dom has no Option constructor; this is what a browser's makes of (text, value).
  vi.stubGlobal("Option", function (text: string, value: string) {
    return Object.assign(document.createElement("option"), { textContent: text, value });
  });
  // The cart block reads once it is seen: here it always is.
  vi.stubGlobal(
    "IntersectionObserver",
    class {
      constructor(private readonly seen: (entries: { isIntersecting: boolean }[]) => void) {}
      observe() {
        this.seen([{ isIntersecting: true }]);
      }
      disconnect() {}
    },
  );
  handlers = {};
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("a spent budget (402 PLAN_LIMIT_REACHED) pauses saving", () => {
  test("the Saved items block says so, shows the list last read on this device, read-only, and asks once", async () => {
    handlers.list = () => page(item(1, "Mug"), item(2, "Vase"));
    await openPage("saved-items", "1001");

    handlers.list = budgetSpent;
    const root = await openPage("saved-items", "1001");
    expect(status(root)).toBe(en.status.paused);
    expect(root.textContent).not.toContain(en.status.error);
    expect(root.getAttribute("data-state")).toBe("ready");
    expect(titles(root)).toEqual(["Mug", "Vase"]);
    const removes = [...root.querySelectorAll<HTMLButtonElement>(".si-remove")];
    expect(removes.map((button) => [button.disabled, button.title])).toEqual([
      [true, en.status.paused],
      [true, en.status.paused],
    ]);
    expect(asked).toEqual(["list"]);
  });

  test("another customer on the same device sees nothing of the first's, and the first's is no longer stored", async () => {
    handlers.list = () => page(item(1, "Mug"));
    await openPage("saved-items", "1001");

    handlers.list = budgetSpent;
    const root = await openPage("saved-items", "2002");
    expect(status(root)).toBe(en.status.paused);
    expect(titles(root)).toEqual([]);
    expect(JSON.stringify({ ...localStorage })).not.toContain("Mug");
  });

  test("at the reset time it reads once more, and what the service answers replaces the device's rows", async () => {
    handlers.list = () => page(item(1, "Mug"));
    await openPage("saved-items", "1001");

    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"], now: Date.parse(RESET) - 60_000 });
    handlers.list = budgetSpent;
    const root = await openPage("saved-items", "1001");
    expect(titles(root)).toEqual(["Mug"]);
    await vi.advanceTimersByTimeAsync(59_000);
    expect(asked).toEqual(["list"]);

    handlers.list = () => page(item(3, "Lamp"), item(1, "Mug"));
    await vi.advanceTimersByTimeAsync(1_000);
    await vi.waitFor(() => expect(titles(root)).toEqual(["Lamp", "Mug"]));
    expect(asked).toEqual(["list", "list"]);
    expect(status(root)).toBe("");
    expect(root.querySelector<HTMLButtonElement>(".si-remove")!.disabled).toBe(false);
  });

  test("the Save button is disabled on the next page view, which reads again although its state is fresh, and serves once that read does", async () => {
    handlers.list = () => page(item(1, "Mug"));
    await openPage("save-button", "1001");
    handlers.list = budgetSpent;
    await openPage("saved-items", "1001");

    let answer!: (value: Answer) => void;
    handlers.list = () => new Promise<Answer>((resolve) => (answer = resolve));
    const pending = openPage("save-button", "1001");
    await vi.waitFor(() => expect(asked).toEqual(["list"]));
    const button = document.querySelector<HTMLButtonElement>("[data-si] button")!;
    expect([button.disabled, button.title, status(button.closest("[data-si]")!)]).toEqual([
      true,
      en.status.paused,
      en.status.paused,
    ]);
    answer(page(item(1, "Mug")));
    const root = await pending;
    expect([button.disabled, button.title, status(root), button.getAttribute("aria-pressed")]).toEqual([
      false,
      "",
      "",
      "true",
    ]);
  });

  test("a save refused for a list's bound is that save's failure: nothing pauses", async () => {
    handlers.list = () => page();
    const root = await openPage("save-button", "1001");
    handlers.save = () =>
      refused(
        "PLAN_LIMIT_REACHED",
        "A list holds at most 500 saved items, counting items removed in the last 30 days; remove items",
        402,
      );
    root.querySelector<HTMLButtonElement>("button")!.click();
    await vi.waitFor(() => expect(status(root)).toBe(en.status.error));
    expect(root.querySelector<HTMLButtonElement>("button")!.disabled).toBe(false);
  });
});

describe("the list manager", () => {
  test("reads the lists once the guest saves are merged, so its counts include them", async () => {
    localStorage.setItem("saved-items:guest", JSON.stringify([{ ...item(1, "Mug"), source: "theme-save-button" }]));
    let merged = false;
    let release!: () => void;
    handlers.batch = () =>
      new Promise<Answer>((resolve) => (release = () => resolve(ok({ results: [{ ok: true }] })))).then((answer) => {
        merged = true;
        return answer;
      });
    handlers.list = () => page(...(merged ? [item(1, "Mug")] : []));
    handlers.lists = () => ok({ lists: merged ? [{ context: "wishlist", name: null, itemCount: 1 }] : [] });
    const opened = openPage("saved-items", "1001", { manage_lists: "true" });
    await vi.waitFor(() => expect(asked).toContain("batch"));
    // Whatever reads the page started meanwhile are answered before the merge is.
    await new Promise((resolve) => setTimeout(resolve));
    release();
    const root = await opened;
    expect([...root.querySelectorAll("option")].map((option) => option.textContent)).toEqual(["Default list (1)"]);
  });
});

describe("the list manager's controls", () => {
  const lists = (...entries: [string, string | null, number][]) =>
    ok({
      lists: entries.map(([context, name, itemCount]) => ({ context, name, itemCount })),
      pageInfo: { hasNextPage: false, endCursor: null },
    });
  const options = (root: HTMLElement) => [...root.querySelectorAll("option")].map((option) => option.textContent);
  const click = (root: HTMLElement, selector: string) => root.querySelector<HTMLButtonElement>(selector)!.click();
  const formError = (root: HTMLElement) => root.querySelector(".si-form-error")!.textContent;

  async function openManager() {
    handlers.list = () => page();
    const root = await openPage("saved-items", "1001", { manage_lists: "true" });
    return root;
  }

  test("names the lists, never by their keys", async () => {
    handlers.lists = () =>
      lists(
        ["list-3f2a9c", "Birthday ideas", 2],
        ["ctx-x", null, 1],
        ["saved-for-later", null, 3],
        ["wishlist", null, 4],
      );
    const root = await openManager();
    expect(options(root)).toEqual([
      "Birthday ideas (2)",
      `${en.lists.unnamed} (1)`,
      `${en.lists.for_later} (3)`,
      `${en.lists.default} (4)`,
    ]);
    expect(root.querySelector("select")!.textContent).not.toMatch(/ctx-x|list-3f2a9c|saved-for-later/);
  });

  test("Delete list asks inside the block, and deletes only once confirmed", async () => {
    handlers.lists = () => lists(["list-1", "Gifts", 0], ["wishlist", null, 0]);
    handlers["delete-list"] = () => ok({ context: "list-1", deleted: true, removedItems: 0 });
    vi.stubGlobal("confirm", () => {
      throw new Error("window.confirm was called");
    });
    const root = await openManager();
    root.querySelector("select")!.value = "list-1";
    const confirmBox = root.querySelector<HTMLElement>(".si-confirm")!;

    click(root, ".si-list-delete");
    expect(confirmBox.hidden).toBe(false);
    expect(confirmBox.textContent).toContain(en.lists.confirm.replace("{name}", "Gifts"));
    expect(document.activeElement).toBe(root.querySelector(".si-list-keep"));
    click(root, ".si-list-keep");
    expect(confirmBox.hidden).toBe(true);
    expect(document.activeElement).toBe(root.querySelector(".si-list-delete"));
    root.querySelector(".si-list-delete")!.dispatchEvent(new Event("click"));
    confirmBox.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
    expect(confirmBox.hidden).toBe(true);
    expect(asked).not.toContain("delete-list");

    click(root, ".si-list-delete");
    click(root, ".si-list-confirm");
    await vi.waitFor(() => expect(options(root)).toEqual([`${en.lists.default} (0)`]));
    expect(asked.filter((operation) => operation === "delete-list")).toHaveLength(1);
    expect(confirmBox.hidden).toBe(true);
  });

  test("rename and delete act on the list they named when opened, whatever the picker holds when pressed", async () => {
    handlers.lists = () => lists(["beta", "Beta", 1], ["alpha", "Alpha", 1]);
    const bodies: unknown[] = [];
    const answer = (data: unknown) => (_url: URL, init: RequestInit) => {
      bodies.push(JSON.parse(String(init.body)));
      return ok(data);
    };
    handlers["rename-list"] = answer({ context: "alpha", name: "Alpha 2", itemCount: 1 });
    handlers["delete-list"] = answer({ context: "alpha", deleted: true, removedItems: 1 });
    const root = await openManager();
    const select = root.querySelector("select")!;
    // The picker moved with no change event, as a script or a restored form may move it.
    const armOnAlpha = (button: string) => {
      select.value = "alpha";
      select.dispatchEvent(new Event("change"));
      click(root, button);
      select.value = "beta";
    };

    armOnAlpha(".si-list-rename");
    root.querySelector("input")!.value = "Alpha 2";
    root.querySelector("form")!.requestSubmit();
    await vi.waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toEqual({ name: "Alpha 2", context: "alpha" });
    await vi.waitFor(() => expect(options(root)).toEqual(["Beta (1)", "Alpha 2 (1)"]));
    armOnAlpha(".si-list-delete");
    expect(root.querySelector(".si-confirm p")!.textContent).toBe(en.lists.confirm.replace("{name}", "Alpha 2"));
    click(root, ".si-list-confirm");
    await vi.waitFor(() => expect(bodies).toHaveLength(2));
    expect(bodies[1]).toEqual({ context: "alpha" });
    await vi.waitFor(() => expect(options(root)).toEqual(["Beta (1)"]));
  });

  test("a delete answered NOT_FOUND is done: the list was gone already (a retry after a lost answer, another device)", async () => {
    handlers.lists = () => lists(["beta", "Beta", 1], ["alpha", "Alpha", 1]);
    handlers["delete-list"] = () => refused("NOT_FOUND", "You have no list with the key beta", 404);
    const root = await openManager();
    click(root, ".si-list-delete");
    click(root, ".si-list-confirm");
    await vi.waitFor(() => expect(options(root)).toEqual(["Alpha (1)"]));
    expect(root.querySelector(".si-lists-said")!.textContent).toBe(en.lists.done);
  });

  test("the new-list form refuses an empty name, and a refused create says the limit and the next step", async () => {
    const { decideCreateList } = await import("../../app/services/saved-items/named-lists");
    const { tooManyListsError } = await import("../../app/services/saved-items/storage-bounds");
    const { PLANS } = await import("../../app/services/plans");
    const planRefusal = decideCreateList(
      null,
      { named: ["a", "b"], lists: ["a", "b"] },
      { context: "c", name: "Third" },
      PLANS.free,
      30 * 86_400_000,
    );
    const messages = [
      planRefusal.kind === "refuse" ? planRefusal.error.message : "",
      tooManyListsError(30 * 86_400_000).message,
    ];
    handlers.lists = () => lists(["wishlist", null, 0]);
    const root = await openManager();
    const form = root.querySelector<HTMLFormElement>("form")!;
    click(root, ".si-list-new");
    expect(form.hidden).toBe(false);
    expect(root.querySelector(".si-list-new")!.getAttribute("aria-expanded")).toBe("true");
    form.requestSubmit();
    expect(formError(root)).toBe(en.lists.name_required);
    expect(form.querySelector("input")!.getAttribute("aria-invalid")).toBe("true");
    expect(asked).not.toContain("create-list");

    form.querySelector("input")!.value = "Third";
    for (const message of messages) {
      handlers["create-list"] = () => refused("PLAN_LIMIT_REACHED", message, 402);
      root.querySelector(".si-form-error")!.textContent = "";
      form.requestSubmit();
      await vi.waitFor(() => expect(formError(root)).not.toBe(""));
      expect(formError(root)).toBe(
        message === messages[0]
          ? "You have 2 lists, the most this shop allows. Delete a list to make a new one."
          : en.lists.limit_kept.replace("{n}", "52"),
      );
    }
  });
});

describe("the share control", () => {
  const token = "t".repeat(43);
  const link = `${location.origin}/apps/saved-items/shared/${token}`;
  const click = (root: HTMLElement, selector: string) => root.querySelector<HTMLButtonElement>(selector)!.click();
  const shareStatus = (root: HTMLElement) => root.querySelector(".si-share-said")!.textContent;

  test("makes a link to the list shown, copies it, keeps it on the device, and stops sharing it", async () => {
    handlers.list = () => page(item(1, "Mug"));
    let body: unknown;
    handlers["share-create"] = (_url, init) => {
      body = JSON.parse(String(init.body));
      return ok({
        token,
        path: `/apps/saved-items/shared/${token}`,
        url: "https://demo.myshopify.com/x",
        displayName: null,
      });
    };
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal("navigator", { ...navigator, clipboard: { writeText } });
    let root = await openPage("saved-items", "1001");
    const input = () => root.querySelector<HTMLInputElement>(".si-share-link input")!;
    expect(root.querySelector<HTMLElement>(".si-share-link")!.hidden).toBe(true);
    expect(root.querySelector(".si-share-state")!.textContent).toBe(en.share.how);

    click(root, ".si-share-make");
    await vi.waitFor(() => expect(shareStatus(root)).toBe(en.share.made));
    expect(body).toEqual({ context: "wishlist" });
    expect(input().value).toBe(link);
    expect(root.querySelector<HTMLElement>(".si-share-link")!.hidden).toBe(false);
    expect(root.querySelector(".si-share-state")!.textContent).toBe(en.share.shared);
    click(root, ".si-share-copy");
    await vi.waitFor(() => expect(shareStatus(root)).toBe(en.share.copied));
    expect(writeText).toHaveBeenCalledWith(link);

    // The next page view shows the link; without the Clipboard API, the shopper copies it from the field.
    vi.stubGlobal("navigator", { ...navigator, clipboard: undefined });
    root = await openPage("saved-items", "1001");
    expect(input().value).toBe(link);
    click(root, ".si-share-copy");
    await vi.waitFor(() => expect(shareStatus(root)).toBe(en.share.copy_yourself));

    handlers["share-revoke"] = () => ok({ revoked: true });
    click(root, ".si-share-revoke");
    await vi.waitFor(() => expect(shareStatus(root)).toBe(en.share.unshared));
    expect(asked).toContain("share-revoke");
    expect(root.querySelector<HTMLElement>(".si-share-link")!.hidden).toBe(true);
    expect(JSON.stringify({ ...localStorage })).not.toContain(token);
  });

  test("another customer on the device never sees the first's link; the block's setting turns the control off", async () => {
    handlers.list = () => page();
    handlers["share-create"] = () => ok({ token, path: "", url: "", displayName: null });
    const root = await openPage("saved-items", "1001");
    click(root, ".si-share-make");
    await vi.waitFor(() => expect(shareStatus(root)).toBe(en.share.made));
    const other = await openPage("saved-items", "2002");
    expect(other.querySelector<HTMLInputElement>(".si-share-link input")!.value).toBe("");
    expect((await openPage("saved-items", "1001", { share: "false" })).querySelector(".si-share")).toBeNull();
  });
});

describe("the cart block", () => {
  const variant = (id: number, title: string) => ({
    ...item(id, title),
    context: "saved-for-later",
    entityType: "variant",
    entityGid: `gid://shopify/ProductVariant/${id}`,
  });
  const cartJs = (...lines: [number, number][]) => ({
    status: 200,
    body: {
      items: lines.map(([variant_id, product_id]) => ({ key: `${variant_id}:k`, variant_id, product_id, quantity: 1 })),
    },
  });
  const shown = (root: HTMLElement) => [...root.querySelectorAll(".si-saved .si-title")].map((a) => a.textContent);

  test("shows the saved items the cart does not hold, by variant or by product", async () => {
    handlers.list = () => page(variant(11, "Mug - Blue"), variant(12, "Mug - Red"), item(5, "Vase"), item(6, "Lamp"));
    handlers["cart.js"] = () => cartJs([11, 1], [50, 5]);
    const root = await openPage("save-for-later", "1001");
    expect(shown(root)).toEqual(["Mug - Red", "Lamp"]);
  });

  test("Add to cart adds the variant and leaves it saved; Remove removes it from the list", async () => {
    handlers.list = () => page(variant(12, "Mug - Red"), variant(13, "Mug - Green"));
    handlers["cart.js"] = () => cartJs();
    let added: unknown;
    handlers["add.js"] = (_url, init) => {
      added = JSON.parse(String(init.body));
      return cartJs([12, 1]);
    };
    handlers.remove = () => ok({ id: "x", state: "removed" });
    const root = await openPage("save-for-later", "1001");
    root.querySelector<HTMLButtonElement>(".si-add")!.click();
    await vi.waitFor(() => expect(shown(root)).toEqual(["Mug - Green"]));
    expect(added).toEqual({ items: [{ id: 12, quantity: 1 }] });
    expect(status(root)).toBe(en.cart.moved);
    expect(asked).not.toContain("remove");
    expect(document.activeElement).toBe(root.querySelector(".si-add"));

    root.querySelector<HTMLButtonElement>(".si-saved .si-remove")!.click();
    await vi.waitFor(() => expect(shown(root)).toEqual([]));
    expect(asked).toContain("remove");
    expect(root.getAttribute("data-state")).toBe("in-cart");
  });

  test("while saving is paused, Remove is disabled and says why; Add to cart still works", async () => {
    handlers.list = () => page(variant(12, "Mug - Red"));
    handlers["cart.js"] = () => cartJs();
    await openPage("save-for-later", "1001");
    handlers.list = budgetSpent;
    await openPage("saved-items", "1001");

    const root = await openPage("save-for-later", "1001");
    expect(shown(root)).toEqual(["Mug - Red"]);
    const remove = root.querySelector<HTMLButtonElement>(".si-saved .si-remove")!;
    expect([remove.disabled, remove.title, status(root)]).toEqual([true, en.status.paused, en.status.paused]);
    expect(root.querySelector<HTMLButtonElement>(".si-add")!.disabled).toBe(false);
  });
});

describe("hearts and rows agree with the list, however an item was saved (issue 42)", () => {
  const MUG = "gid://shopify/Product/8104";
  /** A theme's card with no data-product-id: the embed finds its product by the link. */
  const CARD = `<ul><li class="product-card"><a href="/products/ceramic-mug"><h3>Ceramic Mug</h3></a></li></ul>`;
  const card = (title: string, entityType = "product", entityGid = MUG) => ({
    availability: "available",
    title,
    url:
      entityType === "variant"
        ? `/products/ceramic-mug?variant=${entityGid.split("/").pop()}`
        : "/products/ceramic-mug",
    image: null,
    price: { amount: "16.00", currencyCode: "USD" },
    variantGid: null,
    priceDropped: false,
  });
  /** Saved on another channel (headless, POS, the API): no snapshot, only the catalogue's card. */
  const savedElsewhere = (entityType = "product", entityGid = MUG) => ({
    id: entityGid,
    entityType,
    entityGid,
    status: "active",
    product: card("Ceramic Mug", entityType, entityGid),
  });
  const heart = () => document.querySelector<HTMLButtonElement>(".si-heart")!;
  const bodyOf = (init: RequestInit) => JSON.parse(String(init.body)) as { entityGid: string };

  test("a card known by its link shows saved a product saved without a snapshot, and one click removes it", async () => {
    handlers.list = () => page(savedElsewhere());
    let removed: string | undefined;
    handlers.remove = (_url, init) => {
      removed = bodyOf(init).entityGid;
      return ok({ id: "x", state: "removed" });
    };
    const root = await openPage("saved-items-embed", "1001", {}, CARD);
    expect(heart().getAttribute("aria-pressed")).toBe("true");
    heart().click();
    await vi.waitFor(() => expect(status(root)).toBe(en.status.removed));
    expect(heart().getAttribute("aria-pressed")).toBe("false");
    expect(removed).toBe(MUG);
    // Its id came from the saved state: no lookup of ceramic-mug.js, no save.
    expect(asked).toEqual(["list", "remove"]);
  });

  test("a saved variant of the product leaves the product's heart unsaved, as on a card with a product id", async () => {
    handlers.list = () =>
      page({
        ...item(91041, "Ceramic Mug"),
        entityType: "variant",
        entityGid: "gid://shopify/ProductVariant/91041",
        snapshot: { ...item(91041, "Ceramic Mug").snapshot, handle: "ceramic-mug" },
      });
    await openPage("saved-items-embed", "1001", {}, CARD);
    expect(heart().getAttribute("aria-pressed")).toBe("false");
  });

  test("a save answered DUPLICATE_SAVE (saved elsewhere since the list was read) shows saved and says it already was", async () => {
    handlers.list = () => page();
    handlers["ceramic-mug.js"] = () => ({ status: 200, body: { id: 8104 } });
    handlers.save = () => refused("DUPLICATE_SAVE", "Already saved", 409);
    const root = await openPage("saved-items-embed", "1001", {}, CARD);
    heart().click();
    await vi.waitFor(() => expect(status(root)).toBe(en.status.already));
    expect(heart().getAttribute("aria-pressed")).toBe("true");
  });

  test("a product and its only variant, both saved, are two rows, the variant's tagged as one", async () => {
    const variant = "gid://shopify/ProductVariant/91041";
    handlers.list = () => page(savedElsewhere("variant", variant), savedElsewhere());
    const root = await openPage("saved-items", "1001");
    const rows = [...root.querySelectorAll<HTMLElement>(".si-items li")];
    expect(rows.map((row) => row.querySelector(".si-kind")?.textContent)).toEqual([en.list.variant, undefined]);
    expect(rows.map((row) => row.querySelector(".si-remove")!.getAttribute("aria-label"))).toEqual([
      `${en.list.remove}: Ceramic Mug (${en.list.variant})`,
      `${en.list.remove}: Ceramic Mug`,
    ]);
  });
});
