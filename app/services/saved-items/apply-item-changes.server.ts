import { clock } from "~/lib/clock";
import { LockUnavailableError, type HeldLocks } from "~/lib/coordination/coordinator.server";
import { getCoordinator } from "~/lib/coordination/shared-coordinator.server";
import { readShopVersion } from "~/lib/coordination/shop-version.server";
import { ServiceError } from "~/lib/errors";
import { annotateRequest } from "~/lib/request-context.server";
import type { Caller } from "./caller";
import { itemHandle, listHandle } from "./handles.server";
import {
  currentState,
  lookUpItem,
  withObservedItems,
  withPendingItems,
  type KnownItem,
  type ListState,
} from "./list-state";
import { getListStateStore, type ListKey } from "./list-state-store.server";
import { applyWrites, readItemRecords, type ItemWrite, type ListWrite } from "./metaobject-store.server";
import { absentItem, observedItem } from "./observations";
import type { ItemIdentity, ItemState, SaveOperationResult } from "./schemas";
import { decideTransition, type ItemAction } from "./transitions";

export interface ItemChange {
  action: ItemAction;
  item: ItemIdentity;
  source?: string;
  snapshot?: Record<string, unknown>;
}

export type ChangeOutcome = { ok: true; result: SaveOperationResult } | { ok: false; error: ServiceError };

const ERROR_MESSAGES = {
  DUPLICATE_SAVE: "This item is already saved in this list",
  ITEM_NOT_FOUND: "No saved item matches this context, entity type and GID",
} as const;

// date_time fields take second precision.
const isoSeconds = (at: Date) => at.toISOString().replace(/\.\d{3}Z$/, "Z");

interface Planned {
  index: number;
  handle: string;
  context: string;
  /** The state the write leaves the item in, as the list state will know it. */
  next: Omit<KnownItem, "id" | "stampMs">;
  previous: KnownItem | undefined;
}

/**
 * Applies save/remove/toggle changes for one customer. Every item's lock is held for the whole
 * read-decide-write, across instances, so concurrent requests on one item take turns and each
 * sees the previous one's result. The current states come from the lists' cached states where
 * they know them (writes keep them exact), else from one read by handle; all writes then go in
 * one mutation request (split only past the platform's cost cap). While a write is in flight its
 * items are marked pending, so a writer that dies leaves them unknown, never wrong.
 */
export async function applyItemChanges(caller: Caller, changes: ItemChange[]): Promise<ChangeOutcome[]> {
  const handles = changes.map((change) => itemHandle(caller.customerGid, change.item));
  try {
    return await getCoordinator().withLocks(
      handles.map((handle) => `item:${caller.shop}/${handle}`),
      (held) => applyLocked(caller, changes, handles, held),
    );
  } catch (error) {
    if (error instanceof LockUnavailableError) {
      throw new ServiceError(
        "INTERNAL_ERROR",
        "The item is busy or the service cannot coordinate right now; retry shortly",
        {
          cause: error,
        },
      );
    }
    throw error;
  }
}

async function applyLocked(
  caller: Caller,
  changes: ItemChange[],
  handles: string[],
  held: HeldLocks,
): Promise<ChangeOutcome[]> {
  const store = getListStateStore();
  const shopVersion = await readShopVersion(caller.shop);
  const keyOf = (context: string): ListKey => ({ shop: caller.shop, customerGid: caller.customerGid, context });
  const contexts = [...new Set(changes.map((change) => change.item.context))];
  const states = new Map<string, ListState>();
  const startMs = Date.now();
  for (const context of contexts)
    states.set(context, currentState(await store.get(keyOf(context)), shopVersion, startMs));

  await readUnknownStates(caller, changes, handles, states, startMs);

  const savedAt = isoSeconds(clock.now());
  const outcomes: ChangeOutcome[] = [];
  const listWrites = new Map<string, ListWrite>();
  const writes: ItemWrite[] = [];
  const planned: Planned[] = [];

  changes.forEach((change, index) => {
    const handle = handles[index]!;
    const state = states.get(change.item.context)!;
    const found = lookUpItem(state, handle);
    const current = found === "absent" || found?.id == null ? undefined : found;
    const transition = decideTransition(change.action, current?.status ?? null);
    const identity = { entityType: change.item.entityType, entityGid: change.item.entityGid };
    switch (transition.kind) {
      case "unchanged":
        outcomes[index] = { ok: true, result: { id: current!.id!, state: transition.state } };
        return;
      case "error":
        outcomes[index] = { ok: false, error: new ServiceError(transition.code, ERROR_MESSAGES[transition.code]) };
        return;
      case "deactivate":
        writes.push({ kind: "update", id: current!.id!, fields: { status: "removed" } });
        planned.push({
          index,
          handle,
          context: change.item.context,
          previous: current,
          next: { ...current!, status: "removed" },
        });
        return;
      case "activate": {
        const fields = activationFields(change, savedAt);
        const next = {
          ...identity,
          status: "active" as ItemState,
          savedAt,
          snapshot: fields.snapshot ?? current?.snapshot ?? null,
        };
        planned.push({ index, handle, context: change.item.context, previous: current, next });
        if (current) {
          writes.push({ kind: "update", id: current.id!, fields });
          return;
        }
        const key = listHandle(caller.customerGid, change.item.context);
        if (!state.listExists)
          listWrites.set(key, { handle: key, customerGid: caller.customerGid, context: change.item.context });
        writes.push({
          kind: "create",
          handle,
          fields: {
            list_key: key,
            customer_id: caller.customerGid,
            context: change.item.context,
            entity_type: change.item.entityType,
            entity_gid: change.item.entityGid,
            ...fields,
          },
        });
      }
    }
  });
  if (writes.length === 0) return outcomes;

  for (const context of contexts) {
    const pending = planned.filter((entry) => entry.context === context).map((entry) => entry.handle);
    if (pending.length > 0)
      await store.update(keyOf(context), (current) =>
        withPendingItems(currentState(current, shopVersion, startMs), pending, Date.now()),
      );
  }

  // A lock that lapsed (a pause longer than its lease) may be someone else's by now: do not write.
  await held.assertHeld();
  const results = await applyWrites(caller.admin, [...listWrites.values()], writes);
  const settled = new Map<string, Record<string, KnownItem>>();
  const writtenAtMs = Date.now();
  results.forEach((result, writeIndex) => {
    const { index, handle, context, next, previous } = planned[writeIndex]!;
    const known = settled.get(context) ?? {};
    settled.set(context, known);
    if (result.ok) {
      outcomes[index] = { ok: true, result: { id: result.id, state: next.status } };
      known[handle] = { ...next, id: result.id, stampMs: writtenAtMs };
    } else if (result.code === "TAKEN") {
      // Another writer created the item between our read and write: the spec's race row. Its
      // state is left pending, to be read again.
      outcomes[index] = { ok: false, error: new ServiceError("DUPLICATE_SAVE", ERROR_MESSAGES.DUPLICATE_SAVE) };
    } else if (!("error" in result)) {
      outcomes[index] = {
        ok: false,
        error: new ServiceError("PLATFORM_UPSTREAM_ERROR", `The platform refused the write: ${result.message}`),
      };
      // Refused, so nothing changed: the item is what it was before.
      if (previous) known[handle] = previous;
    } else {
      outcomes[index] = { ok: false, error: asServiceError(result.error) };
    }
  });
  for (const [context, known] of settled) {
    // A created item means its list's upsert, which came first in the same request, went through.
    const created = planned.some((entry) => entry.context === context && !entry.previous && known[entry.handle]);
    await store.update(keyOf(context), (current) =>
      withObservedItems(currentState(current, shopVersion, writtenAtMs), known, {
        nowMs: writtenAtMs,
        settlesPending: true,
        ...(created ? { listExists: true } : {}),
      }),
    );
  }
  annotateRequest({ cache: "miss" });
  return outcomes;
}

/**
 * Reads by handle every item whose state the cached list states cannot tell, and whether the
 * lists of items that may be created exist, in one request; settles them into the states.
 */
async function readUnknownStates(
  caller: Caller,
  changes: ItemChange[],
  handles: string[],
  states: Map<string, ListState>,
  nowMs: number,
): Promise<void> {
  const unknownItems = handles.filter(
    (handle, index) => lookUpItem(states.get(changes[index]!.item.context)!, handle) === undefined,
  );
  const unknownLists = [...states.entries()]
    .filter(
      ([context, state]) =>
        state.listExists === undefined && changes.some((c) => c.item.context === context && c.action !== "remove"),
    )
    .map(([context]) => context);
  if (unknownItems.length === 0 && unknownLists.length === 0) {
    annotateRequest({ cache: "hit" });
    return;
  }
  const { items, lists } = await readItemRecords(
    caller.admin,
    [...new Set(unknownItems)],
    unknownLists.map((context) => listHandle(caller.customerGid, context)),
  );
  for (const [context, state] of states) {
    const observed: Record<string, KnownItem> = {};
    changes.forEach((change, index) => {
      const handle = handles[index]!;
      if (change.item.context !== context || !items.has(handle)) return;
      const record = items.get(handle);
      observed[handle] = record ? observedItem(record) : absentItem(change.item, nowMs);
    });
    const listExists = unknownLists.includes(context)
      ? Boolean(lists.get(listHandle(caller.customerGid, context)))
      : undefined;
    states.set(context, withObservedItems(state, observed, { nowMs, settlesPending: true, listExists }));
  }
}

function activationFields(change: ItemChange, savedAt: string): Record<string, string> & { snapshot?: string } {
  return {
    status: "active",
    saved_at: savedAt,
    ...(change.source ? { source: change.source } : {}),
    ...(change.snapshot ? { snapshot: JSON.stringify(change.snapshot) } : {}),
  };
}

function asServiceError(error: unknown): ServiceError {
  return error instanceof ServiceError
    ? error
    : new ServiceError("INTERNAL_ERROR", "Unexpected failure", { cause: error });
}
