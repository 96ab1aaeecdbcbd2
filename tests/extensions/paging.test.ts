import { describe, expect, test, vi } from "vitest";
import { SavedItemsError } from "../../extensions/shared/errors";
import {
  INITIAL_PAGER_STATE,
  appendPage,
  countLabel,
  createPager,
  isEmpty,
  type PagerState,
} from "../../extensions/saved-items-account/src/lib/paging";
import type { ListResult } from "../../extensions/shared/wire";
import { deferred, page } from "../support/extensions/service";

function scripted(...answers: (ListResult | Error | Promise<ListResult>)[]) {
  const cursors: (string | null)[] = [];
  const fetchPage = vi.fn(async (cursor: string | null) => {
    cursors.push(cursor);
    const answer = answers.shift();
    if (!answer) throw new Error("no more pages scripted");
    if (answer instanceof Error) throw answer;
    return answer;
  });
  const states: PagerState[] = [];
  const pager = createPager(fetchPage, (state) => states.push(state));
  return { pager, fetchPage, cursors, states };
}

const ids = (state: PagerState) => state.items.map((item) => item.id);

describe("pager", () => {
  test("loads the first page, then each next page from the last endCursor, until there is none", async () => {
    const { pager, cursors, states } = scripted(page(["1", "2"], true), page(["3", "4"], true), page(["5"], false));

    await pager.reload();
    expect(states[0]).toEqual(INITIAL_PAGER_STATE);
    expect(states[1]!.status).toBe("loading");
    await pager.loadMore();
    await pager.loadMore();
    await pager.loadMore(); // nothing left: no request

    expect(cursors).toEqual([null, "after-2", "after-4"]);
    expect(ids(pager.state)).toEqual(["1", "2", "3", "4", "5"]);
    expect(pager.state).toMatchObject({ hasNextPage: false, status: "ready", error: null });
    expect(states.some((state) => state.status === "loading-more")).toBe(true);
  });

  test("a second loadMore while one runs joins it instead of loading the same page twice", async () => {
    const next = deferred<ListResult>();
    const { pager, fetchPage } = scripted(page(["1"], true), next.promise);
    await pager.reload();

    const first = pager.loadMore();
    const second = pager.loadMore();
    next.resolve(page(["2"]));
    await Promise.all([first, second]);

    expect(fetchPage).toHaveBeenCalledTimes(2);
    expect(ids(pager.state)).toEqual(["1", "2"]);
  });

  test("an item already shown is not repeated when a later page contains it", () => {
    const state = appendPage(appendPage(INITIAL_PAGER_STATE, page(["1", "2"], true)), page(["2", "3"]));
    expect(ids(state)).toEqual(["1", "2", "3"]);
  });

  test("a failed next page keeps what is shown; retry continues from the same cursor", async () => {
    const failure = new SavedItemsError("PLATFORM_UPSTREAM_ERROR", "down", 502, true);
    const { pager, cursors } = scripted(page(["1"], true), failure, page(["2"]));
    await pager.reload();
    await pager.loadMore();

    expect(pager.state).toMatchObject({ status: "error", error: failure, hasNextPage: true });
    expect(ids(pager.state)).toEqual(["1"]);

    await pager.retry();
    expect(cursors).toEqual([null, "after-1", "after-1"]);
    expect(ids(pager.state)).toEqual(["1", "2"]);
    expect(pager.state.error).toBeNull();
  });

  test("a failed first page: retry loads the first page again; a non-service error becomes BAD_RESPONSE", async () => {
    const { pager, cursors } = scripted(new Error("boom"), page(["1"]));
    await pager.reload();
    expect(pager.state.status).toBe("error");
    expect(pager.state.error).toMatchObject({ code: "BAD_RESPONSE", retryable: false });

    await pager.retry();
    expect(cursors).toEqual([null, null]);
    expect(ids(pager.state)).toEqual(["1"]);
  });

  test("removing takes the item out; emptying the shown list loads the next page", async () => {
    const { pager, cursors } = scripted(page(["1", "2"], true), page(["3"]));
    await pager.reload();

    await pager.removeLocally("1");
    expect(ids(pager.state)).toEqual(["2"]);
    expect(cursors).toEqual([null]);

    await pager.removeLocally("2");
    expect(cursors).toEqual([null, "after-2"]);
    expect(ids(pager.state)).toEqual(["3"]);
  });

  test("a reload drops a page still arriving for the previous load", async () => {
    const stale = deferred<ListResult>();
    const { pager } = scripted(stale.promise, page(["fresh"]));
    const first = pager.reload();
    const second = pager.reload();
    stale.resolve(page(["stale"]));
    await Promise.all([first, second]);
    expect(ids(pager.state)).toEqual(["fresh"]);
  });

  test("empty only once loaded with nothing shown and nothing more", async () => {
    const { pager } = scripted(page([]));
    expect(isEmpty(pager.state)).toBe(false);
    await pager.reload();
    expect(isEmpty(pager.state)).toBe(true);
    expect(
      isEmpty(appendPage(INITIAL_PAGER_STATE, { items: [], pageInfo: { hasNextPage: true, endCursor: null } })),
    ).toBe(false);
  });
});

describe("countLabel (profile block)", () => {
  test("the first page's length, with + when more follow", () => {
    expect(countLabel(page([]))).toBe("0");
    expect(countLabel(page(["1", "2", "3"]))).toBe("3");
    expect(
      countLabel(
        page(
          Array.from({ length: 50 }, (_, index) => String(index)),
          true,
        ),
      ),
    ).toBe("50+");
  });
});
