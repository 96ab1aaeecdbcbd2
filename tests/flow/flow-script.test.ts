// The sandbox's webhook script (packages/sandbox/src/webhook.ts --flow on), run as a developer runs
// it, against the app's request handler behind a local HTTP listener: every Flow trigger the app
// declares must end up in use, not three of the four (issue #32 item 10).
import { execFile } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { promisify } from "node:util";
import { afterEach, expect, test } from "vitest";
import { loader as setupLoader } from "~/routes/app.setup";
import { FLOW_TRIGGER_HANDLES } from "~/services/flow/flow-triggers.server";
import { flowTriggerHandles } from "@saved-items/sandbox/flow-triggers";
import { TEST_ENV } from "../support/test-env";
import { loadAdmin } from "../support/admin";
import { givenShop, sendToApp } from "../support/app";

let server: http.Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** An HTTP listener that hands each request, body and headers as sent, to the app's request handler. */
async function appOverHttp(): Promise<string> {
  server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = `${TEST_ENV.SHOPIFY_APP_URL.replace(/\/$/, "")}${req.url}`;
    const headers = new Headers(Object.entries(req.headers).map(([name, value]) => [name, String(value)]));
    const body = chunks.length ? Buffer.concat(chunks) : undefined;
    const response = await sendToApp(new Request(url, { method: req.method, headers, body }));
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

test("the script's handles are the app's: every trigger of extensions/ and no other", () => {
  expect(flowTriggerHandles()).toEqual(Object.values(FLOW_TRIGGER_HANDLES).sort());
});

test("--flow on turns every Flow trigger on", async () => {
  const shop = await givenShop({ plan: "starter" });
  const appUrl = await appOverHttp();
  const { stdout } = await promisify(execFile)(
    "npx",
    ["tsx", "packages/sandbox/src/webhook.ts", "--flow", "on", "--shop", shop],
    { env: { ...process.env, SHOPIFY_APP_URL: appUrl, SHOPIFY_API_SECRET: TEST_ENV.SHOPIFY_API_SECRET } },
  );
  expect(stdout.trim().split("\n")).toHaveLength(4);
  const page = await loadAdmin(setupLoader, "/app/setup", shop);
  expect(page.flowTriggers.triggers.map(({ handle, inUse }) => ({ handle, inUse }))).toEqual(
    Object.values(FLOW_TRIGGER_HANDLES).map((handle) => ({ handle, inUse: true })),
  );
}, 60_000);
