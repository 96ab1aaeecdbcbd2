// Instances that die or are replaced, in the two-instance sandbox: killed in the middle of a save,
// or restarted one after the other while shoppers keep calling.
import { afterAll, beforeAll, expect, test } from "vitest";
import { createRemoteEmulator, type RemoteEmulator } from "@saved-items/platform-emulator/remote";
import { callSandboxProxy as call } from "@saved-items/sandbox/proxy-client";
import { startSandbox, type RunningSandbox } from "@saved-items/sandbox/sandbox-process";
import { listInstances, describeWithRedis } from "../support/instances";

const DEMO = "demo.myshopify.com";

let sandbox: RunningSandbox;
let emulator: RemoteEmulator;

beforeAll(async () => {
  sandbox = await startSandbox({ SANDBOX_INSTANCES: "2" });
  emulator = createRemoteEmulator(/platform emulated at (\S+);/.exec(sandbox.output())![1]!);
}, 300_000);
afterAll(async () => {
  await sandbox?.stop();
});

const identity = (entityGid: string) => ({ context: "wishlist", entityType: "product", entityGid });

describeWithRedis("instances that die or are replaced", () => {
  test("a rolling restart of both instances under load drops no request", async () => {
    const before = await listInstances(sandbox.url);
    let running = true;
    let restarting = false;
    let answeredDuringRestart = 0;
    const failures: string[] = [];
    const worker = async (customer: string) => {
      const gid = `gid://shopify/Product/${customer}`;
      for (let turn = 0; running; turn++) {
        try {
          const answer =
            turn % 3 === 2
              ? await call(sandbox.url, "/proxy/api/toggle", {
                  customer,
                  body: { ...identity(gid), source: "rolling" },
                })
              : await call(sandbox.url, "/proxy/api/is-saved", { customer, query: identity(gid) });
          if (restarting) answeredDuringRestart++;
          if (answer.status !== 200) failures.push(`${answer.status} ${JSON.stringify(answer.body)}`);
        } catch (error) {
          failures.push(String(error));
        }
        // A shopper's pace: well inside the per-customer rate.
        await new Promise((resolve) => setTimeout(resolve, 400));
      }
    };
    const workers = ["61001", "61002", "61003", "61004"].map(worker);
    restarting = true;
    const restarted = await fetch(`${sandbox.url}/__sandbox/rolling-restart`, { method: "POST" });
    restarting = false;
    expect(restarted.status).toBe(200);
    running = false;
    await Promise.all(workers);
    expect(failures).toEqual([]);
    // The load overlapped the restart: each of the four shoppers was answered a few times meanwhile.
    expect(answeredDuringRestart).toBeGreaterThanOrEqual(8);
    const after = await listInstances(sandbox.url);
    expect(after.map((instance) => instance.pid)).not.toEqual(
      expect.arrayContaining(before.map((instance) => instance.pid)),
    );
  }, 120_000);

  test("an instance killed in the middle of a save: the client gets an error, the other instance tells the truth", async () => {
    const [victim, survivor] = await listInstances(sandbox.url);
    const gid = "gid://shopify/Product/62001";
    await emulator.setLatency(1_500);
    const save = call(victim!.url, "/proxy/api/save", {
      customer: "62001",
      body: { ...identity(gid), source: "killed" },
    });
    await new Promise((resolve) => setTimeout(resolve, 700));
    process.kill(victim!.pid, "SIGKILL");
    await expect(save).rejects.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await emulator.setLatency(0);

    const told = await call(survivor!.url, "/proxy/api/is-saved", { customer: "62001", query: identity(gid) });
    expect(told.status).toBe(200);
    const stored = (await emulator.metaobjects(DEMO, "$app:save_item")).filter(
      (entry) => entry.fields.entity_gid === gid,
    );
    expect(told.body.data.saved).toBe(stored.some((entry) => entry.fields.status === "active"));

    // The dead instance's locks lapse after their lease; the item can be changed again.
    let toggled: Awaited<ReturnType<typeof call>> | undefined;
    for (let attempt = 0; attempt < 30 && toggled?.status !== 200; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 500));
      toggled = await call(survivor!.url, "/proxy/api/toggle", {
        customer: "62001",
        body: { ...identity(gid), source: "killed" },
      });
    }
    expect(toggled?.status).toBe(200);
    expect(toggled?.body.data.state).toBe(told.body.data.saved ? "removed" : "active");

    // The front keeps serving with the instance that is left.
    for (let index = 0; index < 4; index++) {
      expect((await call(sandbox.url, "/proxy/api/is-saved", { customer: "62002", query: identity(gid) })).status).toBe(
        200,
      );
    }
  }, 90_000);
});
