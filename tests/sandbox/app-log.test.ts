import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { signedProxyUrl } from "../support/proxy-signature";
import { SANDBOX_DEFAULTS } from "./config";
import { startSandbox, type RunningSandbox } from "./sandbox-process";

const dir = mkdtempSync(path.join(os.tmpdir(), "sandbox-app-log-"));
const appLog = path.join(dir, "app.log");
let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ SANDBOX_APP_LOG: appLog });
}, 120_000);
afterAll(async () => {
  await sandbox?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test("SANDBOX_APP_LOG: the instances' log lines go to the file, not to the sandbox's output", async () => {
  const url = signedProxyUrl(sandbox.url, "/proxy/api/list", SANDBOX_DEFAULTS.SHOPIFY_API_SECRET, {
    shop: "demo.myshopify.com",
    customerId: "1001",
    query: { context: "wishlist" },
  });
  expect((await fetch(url)).status).toBe(200);
  const requestLine = (text: string) =>
    text
      .split("\n")
      .find((line) => line.includes('"msg":"request"') && line.includes('"route":"/proxy/api/:operation"'));
  await expect.poll(() => requestLine(readFileSync(appLog, "utf8")), { timeout: 5_000 }).toBeDefined();
  expect(requestLine(sandbox.output())).toBeUndefined();
  expect(sandbox.output()).toContain("listening on");
}, 30_000);
