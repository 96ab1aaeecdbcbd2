import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { DATABASE_RETRY_MS, OUTAGE_STALENESS_MS, loadOrFallback, staleEntry } from "./availability.server";

/** What Prisma throws while the database cannot be reached. */
const unreachable = () =>
  Object.assign(new Error("Can't reach database server at 127.0.0.1:5432"), {
    name: "PrismaClientKnownRequestError",
    code: "P1001",
  });

describe("served from memory while the database is away (decision 0027)", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    // The outage's log lines, which these tests do not read.
    vi.spyOn(process.stdout, "write").mockImplementation(() => true);
  });
  afterEach(async () => {
    // Whatever a test left, the database answers again before the next.
    await vi.advanceTimersByTimeAsync(DATABASE_RETRY_MS);
    await loadOrFallback(
      async () => "answered",
      () => undefined,
    );
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  test("an entry is served while its version holds and for OUTAGE_STALENESS_MS after it was loaded, never longer", async () => {
    const entry = { version: 7, loadedAtMs: Date.now(), value: "loaded before" };
    const failing = async () => {
      throw unreachable();
    };
    vi.advanceTimersByTime(OUTAGE_STALENESS_MS);
    expect(
      await loadOrFallback(
        failing,
        staleEntry(entry, 7, (held) => held.value),
      ),
    ).toBe("loaded before");
    // Another instance recorded a change (an uninstall, a plan change): the version moved on.
    await expect(
      loadOrFallback(
        failing,
        staleEntry(entry, 8, (held) => held.value),
      ),
    ).rejects.toThrow(/Can't reach database server/);
    vi.advanceTimersByTime(1);
    await expect(
      loadOrFallback(
        failing,
        staleEntry(entry, 7, (held) => held.value),
      ),
    ).rejects.toThrow(/Can't reach database server/);
  });

  test("after a failure the database is not tried for DATABASE_RETRY_MS, then it is", async () => {
    const load = vi.fn(async () => {
      throw unreachable();
    });
    const fallback = () => "from memory";
    expect(await loadOrFallback(load, fallback)).toBe("from memory");
    expect(await loadOrFallback(load, fallback)).toBe("from memory");
    expect(load).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(DATABASE_RETRY_MS);
    load.mockResolvedValueOnce("from the database" as never);
    expect(await loadOrFallback(load, fallback)).toBe("from the database");
    expect(load).toHaveBeenCalledTimes(2);
  });

  test("a failure that is not the database's absence is thrown, fallback or not", async () => {
    const bug = new Error("column does not exist");
    await expect(
      loadOrFallback(
        async () => {
          throw bug;
        },
        () => "from memory",
      ),
    ).rejects.toBe(bug);
  });
});
