import { describe, expect, test } from "vitest";
import { loader as appLoader } from "~/routes/app";
import { action as loginAction, loader as loginLoader } from "~/routes/auth.login/route";
import { loader as indexLoader } from "~/routes/_index";
import { TEST_ENV } from "../support/test-env";

const APP = TEST_ENV.SHOPIFY_APP_URL;

/** Runs a loader or action as Remix would; a Response it throws (a redirect) is returned. */
async function run<T>(
  handler: (args: { request: Request; params: Record<string, string>; context: Record<string, unknown> }) => Promise<T>,
  request: Request,
) {
  try {
    return await handler({ request, params: {}, context: {} });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

const form = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  new Request(`${APP}/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields).toString(),
  });

describe("opening the app outside the admin", () => {
  test("/app without the admin's parameters goes to the login path, which now has a route", async () => {
    const response = await run(appLoader, new Request(`${APP}/app`));
    expect(response).toBeInstanceOf(Response);
    expect((response as Response).status).toBe(302);
    expect((response as Response).headers.get("Location")).toBe("/auth/login");
    expect(await run(loginLoader, new Request(`${APP}/auth/login`))).toEqual({ errors: {} });
  });

  test("the landing page (/) is served without parameters; with a shop it opens the app as the admin does", async () => {
    expect(await run(indexLoader, new Request(`${APP}/`))).toBeNull();
    const opened = (await run(indexLoader, new Request(`${APP}/?shop=demo.myshopify.com&host=abc`))) as Response;
    expect(opened.status).toBe(302);
    expect(opened.headers.get("Location")).toBe("/app?shop=demo.myshopify.com&host=abc");
  });
});

describe("POST /auth/login", () => {
  test.each([
    ["not a domain", "Enter your shop's domain, such as example.myshopify.com"],
    ["https://attacker.example", "Enter your shop's domain, such as example.myshopify.com"],
    ["demo.myshopify.com/../x", "Enter your shop's domain, such as example.myshopify.com"],
    ["", "Enter your shop domain to log in"],
    ["   ", "Enter your shop domain to log in"],
  ])("shop %j is answered with the form and what to fix", async (shop, message) => {
    expect(await run(loginAction, form({ shop }))).toEqual({ errors: { shop: message } });
  });

  test.each(["demo", "demo.myshopify.com", "https://demo.myshopify.com/"])(
    "shop %j starts the install on the platform for that shop",
    async (shop) => {
      const response = (await run(loginAction, form({ shop }))) as Response;
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe(
        `https://admin.shopify.com/store/demo/oauth/install?client_id=${TEST_ENV.SHOPIFY_API_KEY}`,
      );
    },
  );

  test("a shop in the query works like the form's", async () => {
    const response = (await run(loginLoader, new Request(`${APP}/auth/login?shop=demo.myshopify.com`))) as Response;
    expect(response.status).toBe(302);
    expect(await run(loginLoader, new Request(`${APP}/auth/login?shop=%0Aevil`))).toEqual({
      errors: { shop: "Enter your shop's domain, such as example.myshopify.com" },
    });
  });

  test.each([
    [
      "a JSON body",
      new Request(`${APP}/auth/login`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: '{"shop":"demo"}',
      }),
    ],
    ["no body", new Request(`${APP}/auth/login`, { method: "POST" })],
    [
      "a multipart body",
      new Request(`${APP}/auth/login`, {
        method: "POST",
        headers: { "Content-Type": "multipart/form-data; boundary=x" },
        body: "--x--",
      }),
    ],
    ["a form of 1 MB", form({ shop: "demo", pad: "x".repeat(1024 * 1024) })],
    [
      "invalid UTF-8",
      new Request(`${APP}/auth/login`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: Buffer.from([0x73, 0x68, 0x6f, 0x70, 0x3d, 0xc3, 0x28]),
      }),
    ],
  ])("%s is answered with the form, never a 500", async (_name, request) => {
    expect(await run(loginAction, request)).toEqual({ errors: { shop: "Enter your shop domain to log in" } });
  });
});
