// The platform slow or hanging: every outbound call has a timeout, and a batch cut off midway
// reports each operation's true outcome.
import { describe, expect, test } from "vitest";
import { PLATFORM_TIMEOUT_MS } from "~/platform/platform-fetch.server";
import { MAX_WRITES_PER_MUTATION } from "~/services/records/metaobject-store.server";
import { monthlyUsage } from "~/services/usage/monthly-budget.server";
import { callerPointsRule } from "~/services/usage/platform-points";
import { callProxy, givenShop } from "../support/app";
import { aSaveRequest, anIdentity, identityQuery } from "../support/fixtures";
import { emulator } from "../support/platform";
import { advanceTime, controlTimeouts } from "../support/time";

describe("a platform that hangs", () => {
  test("an operation answers PLATFORM_UPSTREAM_ERROR (retryable) within the timeout, and costs the budget nothing", async () => {
    const shop = await givenShop({ plan: "pro" });
    emulator.injectFault({ kind: "hang", api: "admin" });
    const timeouts = controlTimeouts();
    let answered = false;
    const answering = callProxy("/proxy/api/is-saved", { query: identityQuery() }).finally(() => (answered = true));
    await expect.poll(() => emulator.countRequests({ api: "admin" })).toBe(1);
    expect(answered).toBe(false);
    expect(timeouts.asked()).toContain(PLATFORM_TIMEOUT_MS);
    timeouts.fire();
    const answer = await answering;
    expect(answer.status).toBe(502);
    expect(answer.body.error).toMatchObject({ code: "PLATFORM_UPSTREAM_ERROR", retryable: true });
    expect(await monthlyUsage(shop)).toBe(0);
  });

  test("a batch cut off midway: the writes that went through say so, the ones that did not are retryable failures", async () => {
    await givenShop({ plan: "pro" });
    // 50 saves in 50 new lists are 100 writes: two mutation requests. The second one hangs.
    const operations = Array.from({ length: 50 }, (_, index) => ({
      action: "save",
      ...aSaveRequest({ context: `list-${index}`, entityGid: `gid://shopify/Product/${9000 + index}` }),
    }));
    emulator.injectFault({ kind: "hang", api: "admin", operationName: "SavedItemsApplyWrites", skip: 1 });
    const answer = await callProxy("/proxy/api/batch", { body: { operations } });
    expect(answer.status).toBe(200);
    const { results, succeeded, failed } = answer.body.data;
    // The first request carries the customer's directory (it counts the new lists), the 50 list
    // upserts and the first 39 items.
    const firstRequestItems = MAX_WRITES_PER_MUTATION - 1 - 50;
    expect(succeeded).toBe(firstRequestItems);
    expect(failed).toBe(50 - firstRequestItems);
    for (const [index, result] of results.entries()) {
      if (index < firstRequestItems)
        expect(result).toEqual({ ok: true, result: { id: expect.any(String), state: "active" } });
      else expect(result).toMatchObject({ ok: false, code: "PLATFORM_UPSTREAM_ERROR", retryable: true });
    }
    // What each result says is what the platform holds.
    const saved = new Set(
      emulator.metaobjects("demo.myshopify.com", "$app:save_item").map((entry) => entry.fields.entity_gid),
    );
    operations.forEach((operation, index) =>
      expect(saved.has(operation.entityGid), operation.entityGid).toBe(index < firstRequestItems),
    );
    // The failed ones can be retried, once the customer has paid off the platform points the batch
    // spent beyond their share: their state is read again and they are saved.
    const { capacity, refillPerSecond } = callerPointsRule();
    advanceTime(((emulator.usage("demo.myshopify.com").actualPoints - capacity) / refillPerSecond) * 1000);
    emulator.clearRequests();
    const retry = await callProxy("/proxy/api/batch", { body: { operations: operations.slice(firstRequestItems) } });
    expect(retry.body.data).toMatchObject({ succeeded: 50 - firstRequestItems, failed: 0 });
    expect(
      (
        await callProxy("/proxy/api/is-saved", {
          query: anIdentity({ context: "list-49", entityGid: "gid://shopify/Product/9049" }),
        })
      ).body.data,
    ).toEqual({
      saved: true,
    });
  });
});
