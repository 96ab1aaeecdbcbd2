// `lists` shows what the list operations and saves just wrote, on the very next call, while the
// platform's search lags writes (docs/api.md, Lists): on every channel, and through an instance
// that did not make the write (no cache holds lists, so a cleared process is a new instance).
import { afterEach, describe, expect, test } from "vitest";
import { clearProcessCaches } from "~/lib/process-caches.server";
import { callProxy, givenShop } from "../support/app";
import { aServiceToken, callDirect, CUSTOMER, givenDirectShop } from "../support/direct";
import { aSaveRequest } from "../support/fixtures";
import { emulator } from "../support/platform";

/** Far longer than any test: search sees none of the writes these tests make. */
const SEARCH_LAG_MS = 60_000;

type Call = (
  operation: string,
  body?: unknown,
  query?: Record<string, string>,
) => Promise<{ status: number; body: any }>;

const channels: [string, () => Promise<unknown>, Call][] = [
  [
    "proxy",
    () => givenShop({ plan: "pro" }),
    (operation, body, query) => callProxy(`/proxy/api/${operation}`, { body, query }),
  ],
  ...(["headless", "customer-account"] as const).map((channel): [string, () => Promise<unknown>, Call] => [
    channel,
    () => givenDirectShop(),
    async (operation, body, query) =>
      callDirect(`/api/${channel}/${operation}`, {
        token: await aServiceToken({ customerGid: CUSTOMER.id, channel }),
        body,
        query,
      }),
  ]),
];

afterEach(() => emulator.setSearchLag(0));

const listed = async (call: Call, query: Record<string, string> = {}) => {
  const answer = await call("lists", undefined, query);
  expect(answer.status).toBe(200);
  return answer.body.data as {
    lists: { context: string; name: string | null; itemCount: number }[];
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
  };
};
const summary = (lists: { context: string; name: string | null; itemCount: number }[]) =>
  lists.map(({ context, name, itemCount }) => ({ context, name, itemCount }));

describe.each(channels)("lists on the %s channel, while search lags writes", (_, given, call) => {
  test("shows a list made, renamed or deleted, and one a save made, on the very next call", async () => {
    await given();
    emulator.setSearchLag(SEARCH_LAG_MS);
    expect((await call("create-list", { name: "Birthday", context: "birthday" })).status).toBe(200);
    expect(summary((await listed(call)).lists)).toEqual([{ context: "birthday", name: "Birthday", itemCount: 0 }]);

    expect((await call("save", aSaveRequest({ context: "wishlist" }))).status).toBe(200);
    expect(summary((await listed(call)).lists)).toEqual([
      { context: "wishlist", name: null, itemCount: 1 },
      { context: "birthday", name: "Birthday", itemCount: 0 },
    ]);

    expect((await call("rename-list", { context: "birthday", name: "Gifts" })).status).toBe(200);
    clearProcessCaches();
    expect(summary((await listed(call)).lists)).toContainEqual({ context: "birthday", name: "Gifts", itemCount: 0 });

    expect((await call("delete-list", { context: "wishlist" })).status).toBe(200);
    expect(summary((await listed(call)).lists)).toEqual([{ context: "birthday", name: "Gifts", itemCount: 0 }]);
    expect(emulator.schemaViolations).toEqual([]);
  });
});

describe("lists' pages while search lags writes (headless)", () => {
  const [, given, call] = channels[1]!;

  test("a list search has not caught up with comes first, and the pages still hold every list once", async () => {
    await given();
    for (const context of ["a", "b", "c"]) await call("create-list", { name: context.toUpperCase(), context });
    // Search sees a, b and c; d and e are made within its lag.
    emulator.setSearchLag(SEARCH_LAG_MS);
    for (const context of ["d", "e"]) await call("create-list", { name: context.toUpperCase(), context });

    const pages: string[][] = [];
    let query: Record<string, string> = { limit: "2" };
    for (let page = 0; page < 5; page++) {
      const { lists, pageInfo } = await listed(call, query);
      pages.push(lists.map((list) => list.context));
      if (!pageInfo.hasNextPage) break;
      query = { limit: "2", cursor: pageInfo.endCursor! };
    }
    // The first page keeps one list search found, so the next starts after it.
    expect(pages).toEqual([
      ["e", "d", "c"],
      ["b", "a"],
    ]);
  });

  test("costs one request when search holds every list, and one more only for lists it has not caught up with", async () => {
    await given();
    await call("create-list", { name: "Old", context: "old" });
    emulator.clearRequests();
    await listed(call);
    expect(emulator.countRequests({ api: "admin" })).toBe(1);

    emulator.setSearchLag(SEARCH_LAG_MS);
    await call("create-list", { name: "New", context: "new" });
    emulator.clearRequests();
    expect((await listed(call)).lists.map((list) => list.context)).toEqual(["new", "old"]);
    expect(emulator.countRequests({ api: "admin" })).toBe(2);
  });
});
