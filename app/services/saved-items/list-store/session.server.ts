import type { HeldLocks } from "~/infrastructure/coordination/coordinator.server";
import { getCoordinator } from "~/infrastructure/coordination/shared-coordinator.server";
import { readShopVersion } from "~/infrastructure/coordination/shop-version.server";
import type { Caller } from "~/services/caller";
import { listHandle } from "../handles.server";
import { directoryLockKey, listLockKey, withWriteLocks } from "../list-locks.server";
import { currentState, fencedChange, type ListState } from "../list-state";
import { getListStateStore, type ListKey } from "../list-state-store.server";

/*
 * The one door to a customer's lists (docs/decisions/0005-consistent-list-state.md): every writer
 * of a list opens a session, which holds the list's lock (and the directory's, when the write may
 * make or drop a list) for the whole read-decide-write, so the list's writers take turns and each
 * decides from what the one before left. The cache's writes go through the session, fenced.
 */

/** The customer whose lists are written, and the platform client their records are written with. */
export type ListOwner = Pick<Caller, "shop" | "customerGid" | "admin">;

export interface ListSession {
  owner: ListOwner;
  held: HeldLocks;
  /** The shop version the cached states must carry to be used. */
  shopVersion: number;
  /** When the session began: states cached before it by an older shop version are dropped. */
  startMs: number;
}

/**
 * Runs `work` holding the lock of every list named and, with `directory`, the customer's
 * directory's. Locks that cannot be had are a retryable INTERNAL_ERROR, or, for a job that
 * hands its work back (`busy: "rethrow"`), the coordinator's LockUnavailableError.
 */
export function withListSession<T>(
  owner: ListOwner,
  contexts: readonly string[],
  options: { directory: boolean; busy?: "rethrow" },
  work: (session: ListSession) => Promise<T>,
): Promise<T> {
  const keys = [
    ...[...new Set(contexts)].map((context) => listLockKey(owner, context)),
    ...(options.directory ? [directoryLockKey(owner)] : []),
  ];
  const run = async (held: HeldLocks) =>
    work({ owner, held, shopVersion: await readShopVersion(owner.shop), startMs: Date.now() });
  return options.busy === "rethrow" ? getCoordinator().withLocks(keys, run) : withWriteLocks(keys, run);
}

export const listKeyOf = (session: ListSession, context: string): ListKey => ({
  shop: session.owner.shop,
  customerGid: session.owner.customerGid,
  context,
});

export const listHandleOf = (session: ListSession, context: string) => listHandle(session.owner.customerGid, context);

/** The list's cached state as the session may build on it. */
export async function cachedState(session: ListSession, context: string): Promise<ListState> {
  const { state } = await getListStateStore().read(listKeyOf(session, context));
  return currentState(state, session.shopVersion, session.startMs);
}

/** Changes the list's cached state, unless a holder with a newer fence changed it since. */
export function updateCachedState(
  session: ListSession,
  context: string,
  change: (state: ListState) => ListState,
): Promise<void> {
  return getListStateStore().update(
    listKeyOf(session, context),
    fencedChange(session.held.fence, (current) => change(currentState(current, session.shopVersion, session.startMs))),
  );
}

/** Whether the session's locks are still held (a pause longer than their lease loses them). */
export const stillHeld = (session: ListSession): Promise<boolean> =>
  session.held.assertHeld().then(
    () => true,
    () => false,
  );
