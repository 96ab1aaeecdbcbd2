import { describe, expect, onTestFinished, test, vi } from "vitest";
import { clock } from "~/lib/clock";
import { callerPointsRule } from "~/services/usage/platform-points";
import { givenShop, proxyRequest, sendToApp } from "../support/app";
import { anIdentity, identityQuery } from "../support/fixtures";
import { emulator } from "../support/platform";

/**
 * What one caller may cost the shop's Admin API bucket is counted in the platform's points
 * (docs/rate-limits.md, "Platform points"): batches the platform throttles are given back to the
 * monthly budget, but the points their attempts spent are the shopper's, so one shopper cannot
 * take a Standard shop's bucket from the others (issue #31, A4).
 */

const ATTACKER = "6001";
const OTHER = "6002";

const fiftySaves = (round: number) =>
  Array.from({ length: 50 }, (_, index) => ({
    action: "save",
    ...anIdentity({ entityGid: `gid://shopify/Product/${round * 100 + index + 1}` }),
  }));

/** The batch's write is throttled on every attempt, as on a shop whose bucket is busy; its reads go through. */
const throttleTheNextBatchWrite = () =>
  emulator.injectFault({ kind: "throttled", api: "admin", operationName: "SavedItemsApplyWrites", times: 3 });

/**
 * The app's and the platform's time stand still and the app's throttle waits pass at once: the
 * attacker's loop is as fast as it can be, and neither the shop's bucket nor any share refills
 * while the test runs.
 */
function stopTime() {
  vi.useFakeTimers({ toFake: ["Date"] });
  onTestFinished(() => void vi.useRealTimers());
  vi.spyOn(clock, "sleep").mockResolvedValue();
}

async function send(request: Request) {
  const response = await sendToApp(request);
  return { status: response.status, retryAfter: response.headers.get("Retry-After"), body: await response.json() };
}

const platformPoints = () => emulator.requests.reduce((sum, request) => sum + (request.points?.actual ?? 0), 0);

describe("a shopper's platform points", () => {
  test("one shopper's throttled batches spend their own share and are refused 429 before the platform; the other shopper of the Standard shop sees no 429", async () => {
    const shop = await givenShop({ plan: "pro" });
    stopTime();
    const attacker: { status: number; retryAfter: string | null; code?: string; points: number }[] = [];
    const other: number[] = [];

    // 20 rounds: within both shoppers' request rate (a burst of 30), and more than the bucket holds at 105 points a batch.
    for (let round = 0; round < 20; round++) {
      throttleTheNextBatchWrite();
      const before = platformPoints();
      const batch = await send(
        proxyRequest("/proxy/api/batch", { shop, customerId: ATTACKER, body: { operations: fiftySaves(round) } }),
      );
      attacker.push({ ...batch, code: batch.body.error?.code, points: platformPoints() - before });
      const read = await send(
        proxyRequest("/proxy/api/is-saved", {
          shop,
          customerId: OTHER,
          query: identityQuery({ entityGid: `gid://shopify/Product/${9_000 + round}` }),
        }),
      );
      other.push(read.status);
    }
    const list = await send(
      proxyRequest("/proxy/api/list", { shop, customerId: OTHER, query: { context: "wishlist" } }),
    );
    other.push(list.status);

    expect(other.every((status) => status === 200)).toBe(true);
    const served = attacker.filter((answer) => answer.status === 200);
    const refused = attacker.filter((answer) => answer.status === 429);
    expect(served.length).toBeGreaterThan(0);
    expect(served.every((answer) => answer.points > 0)).toBe(true);
    expect(refused.length).toBeGreaterThan(10);
    expect(refused.every((answer) => answer.code === "RATE_LIMITED" && Number(answer.retryAfter) >= 1)).toBe(true);
    // Refused before anything was sent to the platform.
    expect(refused.every((answer) => answer.points === 0)).toBe(true);
    // The bound: the caller's share of the bucket, plus the one request that took it past.
    const spent = served.reduce((sum, answer) => sum + answer.points, 0);
    expect(spent).toBeLessThanOrEqual(callerPointsRule().capacity + Math.max(...served.map((answer) => answer.points)));
  });

  test("a shopper's concurrent batches are each checked at their first platform request, after the one before them on the list spent its points", async () => {
    const shop = await givenShop({ plan: "pro" });
    stopTime();
    const batches = Array.from({ length: 10 }, (_, round) => {
      throttleTheNextBatchWrite();
      return send(
        proxyRequest("/proxy/api/batch", { shop, customerId: ATTACKER, body: { operations: fiftySaves(round) } }),
      );
    });
    await Promise.all(batches);
    const reads = emulator.requests.filter((request) => request.operationName === "SavedItemsReadState");
    const perRead = Math.max(...reads.map((request) => request.points?.actual ?? 0));
    expect(reads.length).toBeLessThanOrEqual(Math.ceil(callerPointsRule().capacity / perRead) + 1);
  });
});
