// Who may open the embedded admin: only an admin session token (issued by the shop's admin for the
// app, to a staff user). Customer-account tokens, signed with the same secret, are refused with 401,
// through the app's real request handler, as a document load and as a fetcher's post. A POS token is
// the same ID token as App Bridge's and opens the admin as its user could (decision 0019).
import { describe, expect, test } from "vitest";
import { isAdminSessionToken } from "~/edge/front-doors/admin-shop.server";
import { TEST_ENV } from "../support/test-env";
import { APP_URL, givenShop, sendToApp } from "../support/app";
import { BROWSER_AGENT } from "../support/insights";
import {
  adminSessionToken,
  customerAccountSessionToken,
  posSessionToken,
  withAdminSession,
} from "../support/session-token";

const app = { apiKey: TEST_ENV.SHOPIFY_API_KEY, apiSecret: TEST_ENV.SHOPIFY_API_SECRET };
const CUSTOMER = "gid://shopify/Customer/1001";

/** /app/plans as the admin's iframe loads it, with `token` as its id_token. */
function plansDocument(shop: string, token: string): Request {
  const url = new URL("/app/plans", APP_URL);
  url.searchParams.set("embedded", "1");
  url.searchParams.set("shop", shop);
  url.searchParams.set("host", Buffer.from(`admin.shopify.com/store/${shop.split(".")[0]}`).toString("base64"));
  url.searchParams.set("id_token", token);
  return new Request(url, { headers: { "User-Agent": BROWSER_AGENT } });
}

/** The plans page's form post turning overage off, as its fetcher sends it, with `token` as bearer. */
function plansPost(token: string): Request {
  return new Request(new URL("/app/plans", APP_URL), {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "User-Agent": BROWSER_AGENT },
    body: new URLSearchParams({ intent: "overage", enabled: "false" }),
  });
}

describe("the admin's front door", () => {
  test("an admin session token opens /app/plans", async () => {
    const shop = await givenShop();
    const response = await sendToApp(
      await withAdminSession(
        new Request(new URL("/app/plans", APP_URL), { headers: { "User-Agent": BROWSER_AGENT } }),
        { shop, ...app },
        "document",
      ),
    );
    expect(response.status).toBe(200);
  });

  test("a POS token, the platform's ID token for the user logged into POS, opens it as that user's admin token would (decision 0019)", async () => {
    const shop = await givenShop();
    const token = await posSessionToken({ shop, ...app, staffUserId: "902541635" });
    expect((await sendToApp(plansDocument(shop, token))).status).toBe(200);
  });

  const others: [string, (shop: string) => Promise<string>][] = [
    [
      "a customer-account token (bare dest)",
      (shop) => customerAccountSessionToken({ shop, ...app, customerGid: CUSTOMER }),
    ],
    [
      "a customer-account token with an https dest",
      (shop) =>
        customerAccountSessionToken({ shop, ...app, customerGid: CUSTOMER, overrides: { dest: `https://${shop}` } }),
    ],
    [
      "a token whose iss is another shop's admin",
      (shop) => adminSessionToken({ shop, ...app, overrides: { iss: "https://other.myshopify.com/admin" } }),
    ],
    ["a token whose sub is a customer", (shop) => adminSessionToken({ shop, ...app, overrides: { sub: CUSTOMER } })],
    ["a token with no iss", (shop) => adminSessionToken({ shop, ...app, overrides: { iss: undefined } })],
  ];

  test.each(others)("%s is refused with 401, as a document and as a form post", async (_name, tokenFor) => {
    const shop = await givenShop();
    const token = await tokenFor(shop);
    // Refused before the library reads it: the bare dest made the library throw (500), the rest opened the page.
    expect((await sendToApp(plansDocument(shop, token))).status).toBe(401);
    expect((await sendToApp(plansPost(token))).status).toBe(401);
  });
});

describe("isAdminSessionToken", () => {
  const shop = "demo.myshopify.com";
  const claims = { iss: `https://${shop}/admin`, dest: `https://${shop}`, aud: app.apiKey, sub: "42" };

  test("the platform's admin session token's claims", () => {
    expect(isAdminSessionToken(claims, app.apiKey)).toBe(true);
  });

  test.each([
    ["another app's audience", { aud: "another-app" }],
    ["iss without its scheme", { iss: `${shop}/admin` }],
    ["iss the shop, not its admin", { iss: `https://${shop}` }],
    ["dest a bare domain", { dest: shop, iss: `https://${shop}/admin` }],
    ["dest not a shop", { dest: "https://evil.example", iss: "https://evil.example/admin" }],
    ["no sub", { sub: undefined }],
    ["sub a customer GID", { sub: CUSTOMER }],
  ])("refuses %s", (_name, change) => {
    expect(isAdminSessionToken({ ...claims, ...change }, app.apiKey)).toBe(false);
  });
});
