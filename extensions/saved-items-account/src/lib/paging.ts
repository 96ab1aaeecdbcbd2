import { toSavedItemsError, type SavedItemsError } from "../../../shared/errors";
import type { ListItem, ListResult } from "../../../shared/wire";

/** Page size of the full page; the profile block asks for one page of PROFILE_COUNT_LIMIT. */
export const PAGE_SIZE = 20;
export const PROFILE_COUNT_LIMIT = 50;

export type PagerStatus = "idle" | "loading" | "loading-more" | "ready" | "error";

export interface PagerState {
  items: ListItem[];
  hasNextPage: boolean;
  endCursor: string | null;
  status: PagerStatus;
  /** The last failure; kept with the items already shown so a retry can continue from there. */
  error: SavedItemsError | null;
}

export const INITIAL_PAGER_STATE: PagerState = {
  items: [],
  hasNextPage: false,
  endCursor: null,
  status: "idle",
  error: null,
};

/** Adds a page after the items shown; an item already shown (moved by a concurrent save) is not repeated. */
export function appendPage(state: PagerState, page: ListResult): PagerState {
  const shown = new Set(state.items.map((item) => item.id));
  return {
    items: [...state.items, ...page.items.filter((item) => !shown.has(item.id))],
    hasNextPage: page.pageInfo.hasNextPage,
    endCursor: page.pageInfo.endCursor ?? state.endCursor,
    status: "ready",
    error: null,
  };
}

export function withoutItem(state: PagerState, id: string): PagerState {
  return { ...state, items: state.items.filter((item) => item.id !== id) };
}

/** The list is known to be empty: loaded, nothing shown, nothing more to load. */
export function isEmpty(state: PagerState): boolean {
  return state.status === "ready" && state.items.length === 0 && !state.hasNextPage;
}

/** "7", or "50+" when the first page was full and more follow. */
export function countLabel(page: ListResult): string {
  return page.pageInfo.hasNextPage ? `${page.items.length}+` : String(page.items.length);
}

export interface Pager {
  readonly state: PagerState;
  /** (Re)loads from the first page. */
  reload(): Promise<void>;
  /** Loads the next page; one at a time (a second call while one runs joins it), nothing when none is left. */
  loadMore(): Promise<void>;
  /** Takes a removed item out of the list; loads the next page when that empties the list. */
  removeLocally(id: string): Promise<void>;
  /** After an error: reloads if nothing is shown yet, otherwise retries the next page. */
  retry(): Promise<void>;
}

export function createPager(
  fetchPage: (cursor: string | null) => Promise<ListResult>,
  onChange: (state: PagerState) => void = () => undefined,
): Pager {
  let state = INITIAL_PAGER_STATE;
  let running: Promise<void> | null = null;
  // Bumped by reload, so a page still arriving for an older load is dropped.
  let generation = 0;

  const set = (next: PagerState) => {
    state = next;
    onChange(state);
  };

  function load(cursor: string | null, status: "loading" | "loading-more"): Promise<void> {
    const current = generation;
    set({ ...state, status, error: null });
    running = fetchPage(cursor).then(
      (page) => {
        if (current === generation) set(appendPage(state, page));
      },
      (error: unknown) => {
        if (current === generation) set({ ...state, status: "error", error: toSavedItemsError(error) });
      },
    );
    const mine = running;
    return mine.finally(() => {
      if (running === mine) running = null;
    });
  }

  const pager: Pager = {
    get state() {
      return state;
    },
    reload() {
      generation += 1;
      set(INITIAL_PAGER_STATE);
      return load(null, "loading");
    },
    loadMore() {
      if (running) return running;
      if (state.status === "idle") return pager.reload();
      if (!state.hasNextPage) return Promise.resolve();
      return load(state.endCursor, "loading-more");
    },
    async removeLocally(id) {
      set(withoutItem(state, id));
      if (state.items.length === 0 && state.hasNextPage) await pager.loadMore();
    },
    retry() {
      return state.items.length === 0 && state.endCursor === null ? pager.reload() : pager.loadMore();
    },
  };
  return pager;
}
