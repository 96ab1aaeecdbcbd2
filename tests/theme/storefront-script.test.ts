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
const page = (...items: ReturnType<typeof item>[]) => ok({ items, pageInfo: { hasNextPage: false, endCursor: null } });

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
    type: "basic",
    headers: new Headers(),
    text: async () => JSON.stringify(body),
  }));
}

async function openPage(block: string, customer: string, settings: Record<string, string> = {}) {
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
    },
    settings,
  );
  document.body.innerHTML = html;
  const kind = block === "saved-items" ? "list" : "button";
  await import(`../../extensions/saved-items-theme-src/entries/${kind}.ts`);
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
