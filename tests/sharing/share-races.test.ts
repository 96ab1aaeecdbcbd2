// Share links racing the list operations on two instances (issue 42, item 2): the two-instance
// sandbox (two app processes sharing Redis, the database and the emulator), each call addressed to
// one instance, a round per customer so the rounds share nothing but the instances.
import { afterAll, beforeAll, expect, test } from "vitest";
import { createRemoteEmulator, type RemoteEmulator } from "@saved-items/platform-emulator/remote";
import { callSandboxProxy } from "@saved-items/sandbox/proxy-client";
import { startSandbox, type RunningSandbox } from "@saved-items/sandbox/sandbox-process";
import { listHandle } from "~/services/saved-items/handles.server";
import { describeWithRedis, listInstances } from "../support/instances";

const ROUNDS = 50;
const DEMO = "demo.myshopify.com";

let sandbox: RunningSandbox;
let instances: string[];
let emulator: RemoteEmulator;

beforeAll(async () => {
  sandbox = await startSandbox({ SANDBOX_INSTANCES: "2" });
  instances = (await listInstances(sandbox.url)).map((instance) => instance.url);
  emulator = createRemoteEmulator(/platform emulated at (\S+);/.exec(sandbox.output())![1]!);
  // Search finds a write at once, so a link that does not open is one that opens nothing, not one search has not caught up with.
  await emulator.setSearchLag(0);
  // Some thousand requests in a few minutes on one shop: the platform's throttling is not what is tested here.
  await emulator.setThrottling(false);
}, 300_000);
afterAll(async () => {
  await sandbox?.stop();
});

/** Even rounds start on the first instance, odd ones on the second; `other` is the one beside it. */
const on = (round: number, other = false) => instances[(round + (other ? 1 : 0)) % instances.length]!;

const call = (base: string, customer: string, operation: string, input: Record<string, unknown>, write = true) =>
  callSandboxProxy(
    base,
    `/proxy/api/${operation}`,
    write ? { customer, body: input } : { customer, query: input as Record<string, string> },
  );

async function givenList(base: string, customer: string, context: string) {
  expect((await call(base, customer, "create-list", { context, name: context })).status).toBe(200);
  const save = { context, entityType: "product", entityGid: "gid://shopify/Product/8001", source: "share-races" };
  expect((await call(base, customer, "save", save)).status).toBe(200);
}

async function share(base: string, customer: string, context: string): Promise<string> {
  const created = await call(base, customer, "share-create", { context });
  expect(created.status).toBe(200);
  return created.body.data.token;
}

/** What the link answers on each instance (each keeps its own cache of shared pages). */
const openEverywhere = (customer: string, token: string) =>
  Promise.all(instances.map((base) => call(base, customer, "shared-list", { token }, false)));

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeWithRedis("share links racing list operations on two instances", () => {
  test(`share-create racing delete-list, ${ROUNDS} rounds: once delete-list has answered, no link of the list opens`, async () => {
    const outcomes = { sharedFirst: 0, deletedFirst: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      const customer = String(62_000 + round);
      await givenList(on(round), customer, "alpha");
      await givenList(on(round), customer, "beta");
      const kept = await share(on(round), customer, "beta");
      const earlier = await share(on(round, true), customer, "alpha");
      // Both links' pages are cached on both instances before the race.
      for (const token of [kept, earlier]) {
        for (const answer of await openEverywhere(customer, token))
          expect(answer, `round ${round}`).toMatchObject({ status: 200 });
      }

      // The share starts up to 80 ms before or after the delete, each on its own instance, and its
      // write may reach the platform late (as a slow platform would make it): a delete that lands
      // between the share's read and its write must still leave no link.
      const offset = (round * 17) % 80;
      await emulator.injectFault({
        kind: "delay",
        api: "admin",
        operationName: "SavedItemsShareUpdate",
        shop: DEMO,
        delayMs: (round % 5) * 40,
      });
      const [shared, deleted] = await Promise.all([
        pause(offset).then(() => call(on(round), customer, "share-create", { context: "alpha" })),
        pause(80 - offset).then(() => call(on(round, true), customer, "delete-list", { context: "alpha" })),
      ]);
      expect(deleted.status).toBe(200);
      expect([200, 404]).toContain(shared.status);
      if (shared.status === 200) outcomes.sharedFirst++;
      else {
        expect(shared.body.error.code).toBe("NOT_FOUND");
        outcomes.deletedFirst++;
      }

      const tokens = [earlier, ...(shared.status === 200 ? [shared.body.data.token as string] : [])];
      for (const token of tokens) {
        for (const answer of await openEverywhere(customer, token)) {
          expect(answer, `round ${round}: a link of the deleted list`).toMatchObject({
            status: 404,
            body: { error: { code: "NOT_FOUND" } },
          });
        }
      }
      const [alpha] = await emulator
        .metaobjects(DEMO, "$app:save_list")
        .then((lists) =>
          lists.filter((list) => list.handle === listHandle(`gid://shopify/Customer/${customer}`, "alpha")),
        );
      expect(alpha?.fields.share_token_hash || null, `round ${round}: a link stored on the deleted list`).toBeNull();
      // The list the shopper did not name keeps its item and its link.
      for (const answer of await openEverywhere(customer, kept)) {
        expect(answer, `round ${round}`).toMatchObject({ status: 200 });
        expect(answer.body.data.items).toHaveLength(1);
      }
    }
    // Both orders happened, so the rounds raced rather than ran one way.
    expect(outcomes.sharedFirst).toBeGreaterThan(0);
    expect(outcomes.deletedFirst).toBeGreaterThan(0);
  }, 600_000);

  test("share-create racing rename-list, 25 rounds: both land, and the link shows the new name", async () => {
    for (let round = 0; round < 25; round++) {
      const customer = String(63_000 + round);
      await givenList(on(round), customer, "alpha");
      const offset = (round * 7) % 40;
      const [shared, renamed] = await Promise.all([
        pause(offset).then(() => call(on(round), customer, "share-create", { context: "alpha" })),
        pause(40 - offset).then(() =>
          call(on(round, true), customer, "rename-list", { context: "alpha", name: `Renamed ${round}` }),
        ),
      ]);
      expect(shared.status).toBe(200);
      expect(renamed.status).toBe(200);
      for (const answer of await openEverywhere(customer, shared.body.data.token)) {
        expect(answer.status).toBe(200);
        expect(answer.body.data).toMatchObject({ listName: `Renamed ${round}`, items: [expect.anything()] });
      }
      const lists = await call(on(round, true), customer, "lists", {}, false);
      expect(lists.body.data.lists).toEqual([expect.objectContaining({ context: "alpha", name: `Renamed ${round}` })]);
    }
  }, 600_000);
});
