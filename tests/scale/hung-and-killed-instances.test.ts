// An instance that hangs (SIGSTOP) or dies (SIGKILL), in the two-instance sandbox: the front takes
// the hung one out of the rotation, answers what it holds 504 without sending it elsewhere, and puts
// it back once it answers again; the sandbox starts the killed one again. Which instance answered a
// request is read from its access log line, by the request id.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createRemoteEmulator, type RemoteEmulator } from "@saved-items/platform-emulator/remote";
import { SANDBOX_DEFAULTS } from "@saved-items/sandbox/config";
import { startSandbox, type RunningSandbox } from "@saved-items/sandbox/sandbox-process";
import { descendantsOf, isAlive } from "@saved-items/platform-emulator/processes";
import { signedProxyUrl } from "@saved-items/sandbox/proxy-signature";
import { listInstances, describeWithRedis } from "../support/instances";

const DEMO = "demo.myshopify.com";

let sandbox: RunningSandbox;
let emulator: RemoteEmulator;
/** Stopped by a test: continued in afterAll if the test failed first, or the sandbox could not drain it. */
const stopped = new Set<number>();

beforeAll(async () => {
  sandbox = await startSandbox({ SANDBOX_INSTANCES: "2" });
  emulator = createRemoteEmulator(/platform emulated at (\S+);/.exec(sandbox.output())![1]!);
}, 300_000);
afterAll(async () => {
  for (const pid of stopped) if (isAlive(pid)) process.kill(pid, "SIGCONT");
  await sandbox?.stop();
});

const identity = (entityGid: string) => ({ context: "wishlist", entityType: "product", entityGid });

/** An app proxy call through the front, under a request id of its own. */
async function viaFront(path: string, customer: string, call: { query?: Record<string, string>; body?: unknown }) {
  const requestId = `front-${randomUUID()}`;
  const url = signedProxyUrl(sandbox.url, path, SANDBOX_DEFAULTS.SHOPIFY_API_SECRET, {
    shop: DEMO,
    customerId: customer,
    query: call.query,
  });
  const response = await fetch(url, {
    method: call.body === undefined ? "GET" : "POST",
    headers: { "X-Request-Id": requestId, ...(call.body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: call.body === undefined ? undefined : JSON.stringify(call.body),
  });
  return { status: response.status, body: await response.json(), requestId };
}

const isSaved = (customer: string) =>
  viaFront("/proxy/api/is-saved", customer, { query: identity("gid://shopify/Product/64000") });

/** The access log lines of the instances carrying this request id, as the instance numbers that wrote them. */
const loggedBy = (requestId: string) =>
  sandbox
    .output()
    .split("\n")
    .filter((line) => line.includes(`"requestId":"${requestId}"`))
    .map((line) => Number(/^\[app (\d+)\] /.exec(line)?.[1]));

/** The instance that answered: its log line is written as the answer goes out, so it is waited for. */
async function answeredBy(requestId: string): Promise<number> {
  await expect.poll(() => loggedBy(requestId).length).toBeGreaterThan(0);
  return loggedBy(requestId)[0]!;
}

describeWithRedis("an instance that hangs or dies", () => {
  test("a hung instance: what it holds is answered 504 and not sent elsewhere, the other answers the rest, and it comes back", async () => {
    const [first, second] = await listInstances(sandbox.url);
    expect([first!.healthy, second!.healthy]).toEqual([true, true]);
    // Slow platform answers keep both saves inside their instances (one each, in turn) while the second one is stopped.
    await emulator.setLatency(3_000);
    const platformCallsBefore = await emulator.countRequests({ shop: DEMO });
    const saves = ["64001", "64002"].map((customer) =>
      viaFront("/proxy/api/save", customer, {
        body: { ...identity(`gid://shopify/Product/${customer}`), source: "hung" },
      }),
    );
    await expect.poll(() => emulator.countRequests({ shop: DEMO })).toBeGreaterThanOrEqual(platformCallsBefore + 2);
    process.kill(second!.pid, "SIGSTOP");
    stopped.add(second!.pid);
    const answers = await Promise.all(saves);
    await emulator.setLatency(0);

    const held = answers.find((answer) => answer.status !== 200)!;
    const served = answers.find((answer) => answer.status === 200)!;
    expect(held).toMatchObject({
      status: 504,
      body: { ok: false, error: { code: "PLATFORM_UPSTREAM_ERROR", message: expect.any(String), retryable: true } },
    });
    expect(await answeredBy(served.requestId)).toBe(1);
    await expect
      .poll(async () => (await listInstances(sandbox.url))[1])
      .toMatchObject({ pid: second!.pid, healthy: false });

    // Out of the rotation: every request is answered, all by the first instance.
    for (let call = 0; call < 4; call++) {
      const answer = await isSaved("64003");
      expect(answer.status).toBe(200);
      expect(await answeredBy(answer.requestId)).toBe(1);
    }
    // The saves the stopped instance held went nowhere else.
    expect(loggedBy(held.requestId)).not.toContain(1);

    process.kill(second!.pid, "SIGCONT");
    stopped.delete(second!.pid);
    await expect
      .poll(async () => (await listInstances(sandbox.url))[1])
      .toMatchObject({ pid: second!.pid, accepting: true, healthy: true });
    const answeredByEach = new Set<number>();
    for (let call = 0; call < 2; call++) answeredByEach.add(await answeredBy((await isSaved("64004")).requestId));
    expect([...answeredByEach].sort()).toEqual([1, 2]);
    expect(loggedBy(held.requestId)).not.toContain(1);
  }, 90_000);

  test("a killed instance is started again, with a new process, while the other answers", async () => {
    const [victim] = await listInstances(sandbox.url);
    process.kill(victim!.pid, "SIGKILL");
    for (let call = 0; call < 3; call++) expect((await isSaved("64005")).status).toBe(200);
    await expect
      .poll(
        async () => {
          const [first] = await listInstances(sandbox.url);
          return first!.pid !== victim!.pid && first!.accepting && first!.healthy;
        },
        { timeout: 60_000 },
      )
      .toBe(true);
    const [restarted] = await listInstances(sandbox.url);
    expect(isAlive(restarted!.pid)).toBe(true);
    expect(sandbox.output()).toContain(
      `[sandbox] instance 1 (pid ${victim!.pid}) exited (signal SIGKILL); starting it again`,
    );
    expect(sandbox.output()).toContain(`[sandbox] instance 1 is back (pid ${restarted!.pid})`);
    const answeredByEach = new Set<number>();
    for (let call = 0; call < 2; call++) answeredByEach.add(await answeredBy((await isSaved("64006")).requestId));
    expect([...answeredByEach].sort()).toEqual([1, 2]);
  }, 90_000);

  // Last: it stops the sandbox.
  test("SIGTERM stops every process, the instance started again among them", async () => {
    const family = descendantsOf(sandbox.pid);
    const instances = await listInstances(sandbox.url);
    expect(family).toEqual(expect.arrayContaining(instances.map((instance) => instance.pid)));
    await sandbox.stop();
    await expect.poll(() => family.filter(isAlive), { timeout: 15_000 }).toEqual([]);
  });
});
