import { describe, expect, test } from "vitest";
import { loader as sharedPageLoader } from "~/routes/proxy.shared.$token";
import { shareTokenHash } from "~/services/saved-items/sharing.server";
import { PLANS } from "~/services/plans";
import { DEMO_SHOP, callProxy, givenShop, proxyRequest, sendToApp, setMonthlyUsage } from "../support/app";
import { CUSTOMER, OTHER_CUSTOMER, aServiceToken, callDirect, givenDirectShop } from "../support/direct";
import { aSaveRequest } from "../support/fixtures";
import { emulator } from "../support/platform";

const OTHER_SHOP = "other-shop.myshopify.com";

async function headless(path: string, body?: unknown, query?: Record<string, string>, customerGid = CUSTOMER.id) {
  const token = await aServiceToken({ customerGid });
  return callDirect(`/api/headless/${path}`, { token, body, query });
}

async function saveItems(customerGid = CUSTOMER.id) {
  // Products of the catalogue: their cards give the page its links; a catalogue title is text, like a snapshot's.
  emulator.addProducts(DEMO_SHOP, [
    { id: "gid://shopify/Product/1", title: "Linen shirt", handle: "linen-shirt", totalInventory: 1, variants: [] },
    {
      id: "gid://shopify/Product/2",
      title: "{{ shop.email }} <script>x</script>",
      handle: "boots",
      totalInventory: 1,
      variants: [],
    },
  ]);
  for (const [id, snapshot] of [
    [
      1,
      {
        title: "Linen shirt",
        handle: "linen-shirt",
        image: "https://cdn.shopify.com/s/files/1/shirt.jpg",
        price: "€49",
      },
    ],
    [2, { title: "{{ shop.email }} <script>x</script>", url: "/products/boots" }],
  ] as const) {
    const { status } = await headless(
      "save",
      aSaveRequest({ entityGid: `gid://shopify/Product/${id}`, snapshot }),
      undefined,
      customerGid,
    );
    expect(status).toBe(200);
  }
}

async function openPage(token: string, options: { shop?: string; customerId?: string } = {}) {
  const request = proxyRequest(`/proxy/shared/${token}`, { shop: options.shop, customerId: options.customerId ?? "" });
  const response = await sharedPageLoader({ request, params: { token }, context: {} });
  return { status: response.status, type: response.headers.get("Content-Type"), body: await response.text() };
}

describe("share links on the headless channel", () => {
  test("create → read → revoke → read is refused; only the token's hash is stored", async () => {
    await givenDirectShop();
    await saveItems();
    const created = await headless("share-create", { context: "wishlist", displayName: "Ana" });
    expect(created.status).toBe(200);
    const { token, path, url, displayName } = created.body.data;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(path).toBe(`/apps/saved-items/shared/${token}`);
    expect(url).toBe(`https://${DEMO_SHOP}${path}`);
    expect(displayName).toBe("Ana");

    const [list] = emulator.metaobjects(DEMO_SHOP, "$app:save_list");
    expect(list!.fields.share_token_hash).toBe(shareTokenHash(token));
    expect(JSON.stringify(emulator.metaobjects(DEMO_SHOP))).not.toContain(token);

    // Another customer of the shop reads it: the items, the chosen name, no ids and no owner.
    const read = await headless("shared-list", undefined, { token }, OTHER_CUSTOMER.id);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual({
      displayName: "Ana",
      listName: null,
      hasMore: false,
      items: [
        expect.objectContaining({ entityGid: "gid://shopify/Product/2", entityType: "product" }),
        expect.objectContaining({
          entityGid: "gid://shopify/Product/1",
          snapshot: expect.objectContaining({ title: "Linen shirt" }),
          product: expect.objectContaining({ title: "Linen shirt", url: "/products/linen-shirt" }),
        }),
      ],
    });
    expect(JSON.stringify(read.body)).not.toContain("Customer/1001");
    expect(read.body.data.items[0]).not.toHaveProperty("id");

    expect((await headless("share-revoke", { context: "wishlist" })).body.data).toEqual({ revoked: true });
    const after = await headless("shared-list", undefined, { token }, OTHER_CUSTOMER.id);
    expect(after).toMatchObject({ status: 404, body: { ok: false, error: { code: "NOT_FOUND" } } });
    expect((await headless("share-revoke", { context: "wishlist" })).body.data).toEqual({ revoked: false });
    // The suite runs with FLOW_TRIGGERS=off (tests/support/test-env.ts): the saves fired nothing.
    expect(emulator.flowTriggersFired(DEMO_SHOP)).toEqual([]);
  });

  test("a new link replaces the old one", async () => {
    await givenDirectShop();
    await saveItems();
    const first = (await headless("share-create", { context: "wishlist" })).body.data.token;
    const second = (await headless("share-create", { context: "wishlist" })).body.data;
    expect(second.displayName).toBeNull();
    expect((await headless("shared-list", undefined, { token: first })).status).toBe(404);
    expect((await headless("shared-list", undefined, { token: second.token })).body.data.displayName).toBeNull();
  });

  test("a rename shows on the shared page at once, a page cached before it included", async () => {
    await givenDirectShop();
    await headless("create-list", { context: "wishlist", name: "Before" });
    const { token } = (await headless("share-create", { context: "wishlist" })).body.data;
    expect((await headless("shared-list", undefined, { token })).body.data.listName).toBe("Before");
    expect((await headless("rename-list", { context: "wishlist", name: "After" })).status).toBe(200);
    expect((await headless("shared-list", undefined, { token })).body.data.listName).toBe("After");
  });

  test("unknown tokens, other shops' tokens and lists the caller does not have are NOT_FOUND", async () => {
    await givenDirectShop();
    await givenDirectShop({ domain: OTHER_SHOP });
    await saveItems();
    const { token } = (await headless("share-create", { context: "wishlist" })).body.data;
    const foreign = await callDirect("/api/headless/shared-list", {
      token: await aServiceToken({ shop: OTHER_SHOP }),
      query: { token },
    });
    expect(foreign).toMatchObject({ status: 404, body: { error: { code: "NOT_FOUND" } } });
    const unknown = await headless("shared-list", undefined, { token: "A".repeat(43) });
    expect(unknown.status).toBe(404);
    // The other customer has no "wishlist" list: they cannot share or revoke the first one's.
    expect((await headless("share-create", { context: "wishlist" }, undefined, OTHER_CUSTOMER.id)).status).toBe(404);
    expect((await headless("share-revoke", { context: "wishlist" }, undefined, OTHER_CUSTOMER.id)).status).toBe(404);
    expect((await headless("shared-list", undefined, { token })).status).toBe(200);
  });

  test("malformed tokens and names are refused at the edge, before the platform", async () => {
    await givenDirectShop();
    const before = emulator.requests.length;
    expect((await headless("shared-list", undefined, { token: "short" })).status).toBe(400);
    expect((await headless("share-create", { context: "wishlist", displayName: "a\nb" })).status).toBe(400);
    expect((await headless("share-create", { context: "wishlist", displayName: "x".repeat(61) })).status).toBe(400);
    expect(emulator.requests.length).toBe(before);
  });

  test("reading a shared list counts against the budget like list", async () => {
    await givenDirectShop();
    await saveItems();
    const { token } = (await headless("share-create", { context: "wishlist" })).body.data;
    await setMonthlyUsage(DEMO_SHOP, PLANS.scale.monthlyRequests);
    const refused = await headless("shared-list", undefined, { token });
    expect(refused).toMatchObject({ status: 402, body: { error: { code: "PLAN_LIMIT_REACHED" } } });
  });

  test("a token that opens no list costs the shop's budget nothing", async () => {
    await givenDirectShop();
    await setMonthlyUsage(DEMO_SHOP, PLANS.scale.monthlyRequests - 1);
    for (let guess = 0; guess < 3; guess++) {
      const unknown = await headless("shared-list", undefined, { token: `guess-${guess}`.padEnd(43, "x") });
      expect(unknown).toMatchObject({ status: 404, body: { error: { code: "NOT_FOUND" } } });
    }
    expect((await headless("save", aSaveRequest())).status).toBe(200);
  });

  test("the lookup by hash is a schema-valid query on an admin-filterable field", async () => {
    await givenDirectShop();
    await saveItems();
    const { token } = (await headless("share-create", { context: "wishlist" })).body.data;
    await headless("shared-list", undefined, { token });
    expect(emulator.schemaViolations).toEqual([]);
  });
});

describe("the shared page through the app proxy", () => {
  test("is Liquid with the items, product links and only the display name, escaped", async () => {
    await givenDirectShop();
    await saveItems();
    const { token } = (await headless("share-create", { context: "wishlist", displayName: "Ana <3" })).body.data;
    const page = await openPage(token);
    expect(page.status).toBe(200);
    expect(page.type).toMatch(/^application\/liquid/);
    expect(page.body).toContain("Saved by Ana &#60;3");
    expect(page.body).toContain('<a href="/products/linen-shirt">');
    expect(page.body).toContain('<img src="https://cdn.shopify.com/s/files/1/shirt.jpg"');
    expect(page.body).toContain('<a href="/products/boots">');
    // A snapshot's braces and tags are text, never Liquid or HTML the platform would run.
    expect(page.body).toContain("&#123;&#123; shop.email &#125;&#125; &#60;script&#62;");
    expect(page.body).not.toContain("{{ shop.email");
    expect(page.body).not.toContain("1001");
  });

  test("a logged-in shopper sees it too; revoked, unknown and malformed tokens are the 404 page", async () => {
    await givenDirectShop();
    await saveItems();
    const { token } = (await headless("share-create", { context: "wishlist" })).body.data;
    expect((await openPage(token, { customerId: "1002" })).status).toBe(200);
    await headless("share-revoke", { context: "wishlist" });
    const revoked = await openPage(token);
    expect(revoked.status).toBe(404);
    expect(revoked.type).toMatch(/^application\/liquid/);
    expect((await openPage("B".repeat(43))).status).toBe(404);
    expect((await openPage("not-a-token")).status).toBe(404);
  });

  test("a token opens nothing on another shop", async () => {
    await givenDirectShop();
    await givenShop({ domain: OTHER_SHOP, plan: "scale" });
    await saveItems();
    const { token } = (await headless("share-create", { context: "wishlist" })).body.data;
    expect((await openPage(token, { shop: OTHER_SHOP })).status).toBe(404);
  });

  test("links only to the shop's own pages and images only from the platform's CDN, on the page and in shared-list", async () => {
    await givenDirectShop();
    const hostile = [
      { handle: "linen-shirt", url: "https://evil.example/phish", image: "https://evil.example/pixel.gif" },
      { handle: "boots", url: "//evil.example/x", image: "https://cdn.shopify.com.evil.example/a.jpg" },
      { handle: "hat", url: "javascript:alert(1)", image: "data:image/svg+xml,<svg onload=alert(1)>" },
      { title: "Scarf", url: "/\\evil.example", image: "//evil.example/b.jpg" },
      { title: "Socks", url: `https://${DEMO_SHOP}/products/socks`, image: `//${DEMO_SHOP}/cdn/shop/files/socks.jpg` },
      { title: "Belt", url: "/products/belt?variant=2", image: "//cdn.shopify.com/s/files/1/belt.jpg" },
    ];
    // Collections have no product card: what shows is the snapshot, as filtered.
    for (const [index, snapshot] of hostile.entries())
      await headless(
        "save",
        aSaveRequest({ entityType: "collection", entityGid: `gid://shopify/Collection/${index + 1}`, snapshot }),
      );
    const { token } = (await headless("share-create", { context: "wishlist" })).body.data;

    const page = await sendToApp(proxyRequest(`/proxy/shared/${token}`, { customerId: "" }));
    expect(page.status).toBe(200);
    const body = await page.text();
    // An item's image and title both link to it.
    const hrefs = [...new Set([...body.matchAll(/href="([^"]*)"/g)].map((match) => match[1]))];
    const srcs = [...body.matchAll(/<img src="([^"]*)"/g)].map((match) => match[1]!);
    expect(hrefs.sort()).toEqual(
      [
        "/products/linen-shirt",
        "/products/boots",
        "/products/hat",
        "/products/socks",
        "/products/belt?variant=2",
      ].sort(),
    );
    // The items without a kept image and with a handle show the storefront's own picture.
    expect(srcs.filter((src) => !src.startsWith("{{")).sort()).toEqual(
      ["/cdn/shop/files/socks.jpg", "https://cdn.shopify.com/s/files/1/belt.jpg"].sort(),
    );
    expect(body).toContain("all_products['linen-shirt'].featured_image");
    expect(body).not.toMatch(/evil|javascript|data:/);

    // Anyone holding the link reads the same through the API; the owner's own list keeps what was stored.
    const read = await headless("shared-list", undefined, { token }, OTHER_CUSTOMER.id);
    expect(JSON.stringify(read.body)).not.toMatch(/evil|javascript|data:/);
    expect(read.body.data.items.map((item: { snapshot: unknown }) => item.snapshot)).toContainEqual({
      title: "Socks",
      url: "/products/socks",
      image: "/cdn/shop/files/socks.jpg",
    });
    const own = await headless("list", undefined, { context: "wishlist" });
    expect(JSON.stringify(own.body)).toContain("https://evil.example/phish");
  });

  test("the proxy channel serves the share operations too", async () => {
    await givenShop();
    await callProxy("/proxy/api/save", { body: aSaveRequest() });
    const created = await callProxy("/proxy/api/share-create", { body: { context: "wishlist" } });
    expect(created.status).toBe(200);
    const read = await callProxy("/proxy/api/shared-list", { query: { token: created.body.data.token } });
    expect(read.body.data.items).toHaveLength(1);
  });
});
