import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { clearProcessCaches } from "~/lib/process-caches.server";
import { CREDIT_BLOCKS, LEASE_IDLE_MS, createQuotaLeases, type QuotaCounter } from "./quota-leases.server";

/** What Prisma throws while the database cannot be reached (decision 0027 serves on credit then). */
const unreachable = () =>
  Object.assign(new Error("Can't reach database server at 127.0.0.1:5432"), {
    name: "PrismaClientKnownRequestError",
    code: "P1001",
  });

/** A counter in memory that can be taken away, like the database's. */
function fakeCounter(limit: number) {
  const counts = new Map<string, number>();
  const state = { away: false, counts };
  const counter: QuotaCounter = {
    async take(scope, period, desired, cap) {
      if (state.away) throw unreachable();
      const count = counts.get(`${scope} ${period}`) ?? 0;
      const taken = Math.max(0, Math.min(desired, Math.min(cap, limit) - count));
      counts.set(`${scope} ${period}`, count + taken);
      return taken;
    },
    async give(scope, period, units) {
      if (state.away) throw unreachable();
      counts.set(`${scope} ${period}`, Math.max(0, (counts.get(`${scope} ${period}`) ?? 0) - units));
    },
  };
  return { counter, state };
}

const BLOCK = 5;
const spendAll = async (spend: () => Promise<boolean>, times: number) => {
  const outcomes: (boolean | "refused")[] = [];
  for (let index = 0; index < times; index++) outcomes.push(await spend().catch(() => "refused" as const));
  return outcomes;
};

describe("quota leases while the counter is away (decision 0027)", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  test("units are spent on credit, up to CREDIT_BLOCKS blocks per scope, and taken from the counter once it is back", async () => {
    const { counter, state } = fakeCounter(1_000);
    const leases = createQuotaLeases({ name: "test", counter, blockSize: () => BLOCK });
    // The outage's log lines, which this test does not read.
    vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    state.away = true;
    const outcomes = await spendAll(() => leases.spend("shop-a", "2026-11", 1_000), CREDIT_BLOCKS * BLOCK + 1);
    expect(outcomes.slice(0, -1)).toEqual(Array(CREDIT_BLOCKS * BLOCK).fill(true));
    // Past the credit: refused with the database's error, which the answer calls retryable.
    expect(outcomes.at(-1)).toBe("refused");
    leases.refund("shop-a", "2026-11");
    state.away = false;
    await vi.advanceTimersByTimeAsync(LEASE_IDLE_MS / 2);
    expect(state.counts.get("shop-a 2026-11")).toBe(CREDIT_BLOCKS * BLOCK - 1);
  });

  test("units spent on credit are still counted when the process caches are dropped meanwhile (Redis lost its data, or the list locks came back from PostgreSQL)", async () => {
    const { counter, state } = fakeCounter(1_000);
    const leases = createQuotaLeases({ name: "test", counter, blockSize: () => BLOCK });
    vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    state.away = true;
    expect(await spendAll(() => leases.spend("shop-d", "2026-11", 1_000), 3)).toEqual([true, true, true]);
    clearProcessCaches();
    state.away = false;
    await vi.advanceTimersByTimeAsync(LEASE_IDLE_MS / 2);
    expect(state.counts.get("shop-d 2026-11")).toBe(3);
  });

  test("a quota nearly used up gets no credit, and what the quota no longer had is logged as served past it", async () => {
    const { counter, state } = fakeCounter(BLOCK + 2);
    const leases = createQuotaLeases({ name: "test", counter, blockSize: () => BLOCK });
    const write = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    // A full block, then the counter has less than a block left: nearly used up.
    expect(await spendAll(() => leases.spend("shop-b", "2026-11", 1_000), BLOCK + 1)).toEqual(
      Array(BLOCK + 1).fill(true),
    );
    state.away = true;
    expect(await spendAll(() => leases.spend("shop-b", "2026-11", 1_000), 2)).toEqual([true, "refused"]);

    // Another scope spends on credit while another instance takes what is left.
    expect(await spendAll(() => leases.spend("shop-c", "2026-11", 1_000), 3)).toEqual([true, true, true]);
    state.counts.set("shop-c 2026-11", BLOCK + 1);
    state.away = false;
    await vi.advanceTimersByTimeAsync(LEASE_IDLE_MS / 2);
    expect(state.counts.get("shop-c 2026-11")).toBe(BLOCK + 2);
    const logged = write.mock.calls.map(([line]) => String(line)).join("");
    expect(logged).toMatch(/served past a quota on credit.*"quota":"test","shop":"shop-c".*"units":2/);
  });
});
