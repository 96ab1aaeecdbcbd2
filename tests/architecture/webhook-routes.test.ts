// CONTRIBUTING: every webhook route is made by parsedWebhookAction (app/edge/parsed-webhook.server.ts).
// Only that helper refuses a delivery of a topic its route was not made for, with 422: each route
// under app/routes/webhooks.* is sent one, through the real request handler.
import { readdirSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { repoRoot } from "@saved-items/sandbox/config";
import { signedWebhook } from "../support/admin";
import { APP_URL, givenShop, sendToApp } from "../support/app";
import { warningsContaining } from "../support/logs";

const ROUTES = readdirSync(path.join(repoRoot, "app/routes")).filter((file) => file.startsWith("webhooks."));

test("there are webhook routes to check", () => {
  expect(ROUTES.length).toBeGreaterThanOrEqual(6);
});

test.each(ROUTES)("%s is made by parsedWebhookAction: an action alone, refusing a topic not its own", async (file) => {
  const route = (await import(`~/routes/${file.replace(/\.tsx?$/, "")}`)) as Record<string, unknown>;
  expect(Object.keys(route)).toEqual(["action"]);

  const shop = await givenShop();
  const warnings = warningsContaining("webhook topic not taken by this route");
  const delivered = signedWebhook("app/uninstalled", { shop });
  const routePath = `/${file.replace(/\.tsx?$/, "").replaceAll(".", "/")}`;
  const headers = new Headers(delivered.headers);
  headers.set("X-Shopify-Topic", "orders/create");
  const response = await sendToApp(
    new Request(new URL(routePath, APP_URL), { method: "POST", headers, body: await delivered.text() }),
  );
  expect(response.status).toBe(422);
  expect(warnings()).toHaveLength(1);
});
