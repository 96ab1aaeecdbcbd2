// Every resource route answers a method it does not take with 405, Allow and the envelope, whether
// the route checks the method itself (operations, exchanges) or Remix would have answered for it
// (app/edge/resource-methods.server.ts): one route of each kind, through the app's request handler.
import { describe, expect, test } from "vitest";
import { APP_URL, sendToApp } from "../support/app";
import { errorEnvelope } from "../support/direct";

const CASES: { kind: string; method: string; path: string; allow: string }[] = [
  { kind: "an operation", method: "POST", path: "/proxy/api/list", allow: "GET" },
  { kind: "an exchange", method: "GET", path: "/api/headless/auth/exchange", allow: "POST" },
  { kind: "the API document", method: "POST", path: "/api/openapi.json", allow: "GET, HEAD" },
  { kind: "the shared page", method: "POST", path: "/proxy/shared/x", allow: "GET, HEAD" },
  { kind: "a webhook", method: "GET", path: "/webhooks/app/uninstalled", allow: "POST" },
  { kind: "the compliance webhook", method: "HEAD", path: "/webhooks/compliance", allow: "POST" },
  { kind: "Flow's lifecycle callback", method: "GET", path: "/flow/lifecycle", allow: "POST" },
  { kind: "an admin resource", method: "DELETE", path: "/app/insights-export", allow: "GET, HEAD" },
];

describe("a method a resource route does not take", () => {
  test.each(CASES)("$kind: $method $path is 405 with Allow $allow", async ({ method, path, allow }) => {
    const response = await sendToApp(
      new Request(new URL(path, APP_URL), { method, ...(method === "POST" ? { body: "{}" } : {}) }),
    );
    expect(response.status).toBe(405);
    expect(response.headers.get("Allow")).toBe(allow);
    if (method !== "HEAD") expect(await response.json()).toEqual(errorEnvelope("VALIDATION_ERROR"));
  });
});
