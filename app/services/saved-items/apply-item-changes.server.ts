import { clock } from "~/lib/clock";
import { ServiceError } from "~/lib/errors";
import { getCoordinator } from "~/lib/coordination/shared-coordinator.server";
import type { Caller } from "./caller";
import { itemHandle, listHandle } from "./handles.server";
import { applyWrites, readItemStates, type ItemWrite, type ListWrite } from "./metaobject-store.server";
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

function activationFields(change: ItemChange, savedAt: string): Record<string, string> {
  return {
    status: "active",
    saved_at: savedAt,
    ...(change.source ? { source: change.source } : {}),
    ...(change.snapshot ? { snapshot: JSON.stringify(change.snapshot) } : {}),
  };
}

/**
 * Applies save/remove/toggle changes for one customer with at most two platform requests in all:
 * one read of every item and list by handle, one aliased mutation with every write. The items'
 * keys are locked for the whole read-decide-write, so concurrent requests on the same item in
 * this process run one after the other and the second sees the first's result.
 */
export async function applyItemChanges(caller: Caller, changes: ItemChange[]): Promise<ChangeOutcome[]> {
  const itemHandles = changes.map((change) => itemHandle(caller.customerGid, change.item));
  return getCoordinator().withLocks(
    itemHandles.map((handle) => `${caller.shop}/${handle}`),
    async () => {
      const listHandles = [
        ...new Set(
          changes
            .filter((change) => change.action !== "remove")
            .map((change) => listHandle(caller.customerGid, change.item.context)),
        ),
      ];
      const { items, lists } = await readItemStates(caller.admin, itemHandles, listHandles);
      const savedAt = isoSeconds(clock.now());

      const outcomes: ChangeOutcome[] = [];
      const listWrites = new Map<string, ListWrite>();
      const writes: ItemWrite[] = [];
      const pending: { index: number; state: ItemState }[] = [];

      changes.forEach((change, index) => {
        const handle = itemHandles[index]!;
        const current = items.get(handle) ?? null;
        const transition = decideTransition(change.action, current?.status ?? null);
        switch (transition.kind) {
          case "unchanged":
            outcomes[index] = { ok: true, result: { id: current!.id, state: transition.state } };
            return;
          case "error":
            outcomes[index] = {
              ok: false,
              error: new ServiceError(transition.code, ERROR_MESSAGES[transition.code]),
            };
            return;
          case "deactivate":
            writes.push({ kind: "update", id: current!.id, fields: { status: "removed" } });
            pending.push({ index, state: "removed" });
            return;
          case "activate": {
            pending.push({ index, state: "active" });
            if (current) {
              writes.push({ kind: "update", id: current.id, fields: activationFields(change, savedAt) });
              return;
            }
            const key = listHandle(caller.customerGid, change.item.context);
            if (!lists.get(key)) {
              listWrites.set(key, { handle: key, customerGid: caller.customerGid, context: change.item.context });
            }
            writes.push({
              kind: "create",
              handle,
              fields: {
                list_key: key,
                customer_id: caller.customerGid,
                context: change.item.context,
                entity_type: change.item.entityType,
                entity_gid: change.item.entityGid,
                ...activationFields(change, savedAt),
              },
            });
          }
        }
      });

      const results = await applyWrites(caller.admin, [...listWrites.values()], writes);
      results.forEach((result, writeIndex) => {
        const { index, state } = pending[writeIndex]!;
        if (result.ok) {
          outcomes[index] = { ok: true, result: { id: result.id, state } };
        } else if (result.code === "TAKEN") {
          // Another process created the item between our read and write: the spec's race row.
          outcomes[index] = { ok: false, error: new ServiceError("DUPLICATE_SAVE", ERROR_MESSAGES.DUPLICATE_SAVE) };
        } else {
          outcomes[index] = {
            ok: false,
            error: new ServiceError("PLATFORM_UPSTREAM_ERROR", `The platform refused the write: ${result.message}`),
          };
        }
      });
      return outcomes;
    },
  );
}
