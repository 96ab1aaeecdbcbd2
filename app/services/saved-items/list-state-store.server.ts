import type { SharedHashes } from "~/lib/coordination/coordinator.server";
import { getCoordinator } from "~/lib/coordination/shared-coordinator.server";
import { registerProcessCache } from "~/lib/process-caches.server";
import { LIST_STATE_TTL_MS, type ListState } from "./list-state";

export interface ListKey {
  shop: string;
  customerGid: string;
  context: string;
}

/**
 * Where list states live: this process's memory by default, Redis when several instances must
 * see each other's writes at once. `update` is an atomic read-modify-write of one list's state.
 */
export interface ListStateStore {
  get(key: ListKey): Promise<ListState | undefined>;
  update(key: ListKey, change: (current: ListState | undefined) => ListState | undefined): Promise<void>;
  /** Drops every list state of one customer (customers/redact). */
  forgetCustomer(shop: string, customerGid: string): Promise<void>;
}

/** Bounds of the in-process store: customers kept, and the approximate bytes of their states. */
const MAX_CUSTOMERS = 50_000;
const MAX_BYTES = 64 * 1024 * 1024;

interface CustomerEntry {
  lists: Map<string, ListState>;
  bytes: number;
}

/** Roughly what a state occupies: a fixed cost per item plus its variable strings (a snapshot dominates). */
function estimateBytes(state: ListState): number {
  let total = 200;
  for (const item of Object.values(state.items)) {
    total +=
      250 + ("pending" in item ? 0 : item.entityGid.length + (item.snapshot?.length ?? 0) + (item.savedAt ? 20 : 0));
  }
  return total;
}

/**
 * The in-process store: customers in least-recently-used order (a Map re-inserted on use),
 * evicted beyond MAX_CUSTOMERS or MAX_BYTES.
 */
export function createLocalListStateStore(): ListStateStore {
  const customers = new Map<string, CustomerEntry>();
  let bytes = 0;
  registerProcessCache(() => {
    customers.clear();
    bytes = 0;
  });

  const customerKey = (shop: string, customerGid: string) => `${shop}\n${customerGid}`;
  const touch = (key: string): CustomerEntry | undefined => {
    const entry = customers.get(key);
    if (entry) {
      customers.delete(key);
      customers.set(key, entry);
    }
    return entry;
  };
  const drop = (key: string) => {
    bytes -= customers.get(key)?.bytes ?? 0;
    customers.delete(key);
  };

  return {
    async get(key) {
      return touch(customerKey(key.shop, key.customerGid))?.lists.get(key.context);
    },
    async update(key, change) {
      const id = customerKey(key.shop, key.customerGid);
      const entry = touch(id) ?? { lists: new Map<string, ListState>(), bytes: 0 };
      const next = change(entry.lists.get(key.context));
      if (next) entry.lists.set(key.context, next);
      else entry.lists.delete(key.context);
      bytes -= entry.bytes;
      entry.bytes = [...entry.lists.values()].reduce((sum, state) => sum + estimateBytes(state), 0);
      if (entry.lists.size === 0) {
        customers.delete(id);
        return;
      }
      customers.set(id, entry);
      bytes += entry.bytes;
      while (customers.size > MAX_CUSTOMERS || bytes > MAX_BYTES) drop(customers.keys().next().value!);
    },
    async forgetCustomer(shop, customerGid) {
      drop(customerKey(shop, customerGid));
    },
  };
}

/**
 * The shared store: each customer's list states are one hash in Redis (a field per list context),
 * so every instance sees every write at once; updates are compare-and-set, retried on a race.
 */
export function createSharedListStateStore(hashes: SharedHashes): ListStateStore {
  const hashOf = (shop: string, customerGid: string) => `list-state:${shop}:${customerGid}`;
  return {
    async get(key) {
      const text = await hashes.read(hashOf(key.shop, key.customerGid), key.context);
      return text === undefined ? undefined : (JSON.parse(text) as ListState);
    },
    async update(key, change) {
      await hashes.update(
        hashOf(key.shop, key.customerGid),
        key.context,
        (current) => {
          const next = change(current === undefined ? undefined : (JSON.parse(current) as ListState));
          return next === undefined ? undefined : JSON.stringify(next);
        },
        LIST_STATE_TTL_MS,
      );
    },
    forgetCustomer: (shop, customerGid) => hashes.remove(hashOf(shop, customerGid)),
  };
}

let store: ListStateStore | undefined;

/** Shared through Redis when the instances coordinate there, in this process's memory otherwise. */
export function getListStateStore(): ListStateStore {
  const { sharedHashes } = getCoordinator();
  store ??= sharedHashes ? createSharedListStateStore(sharedHashes) : createLocalListStateStore();
  return store;
}
