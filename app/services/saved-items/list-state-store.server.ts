import type { SharedHashes } from "~/infrastructure/coordination/coordinator.server";
import { getCoordinator } from "~/infrastructure/coordination/shared-coordinator.server";
import { registerProcessCache } from "~/lib/process-caches.server";
import { LIST_STATE_TTL_MS, type ListState } from "./list-state";

export interface ListKey {
  shop: string;
  customerGid: string;
  context: string;
}

/**
 * Where list states live: this process's memory by default, Redis when several instances must
 * see each other's writes at once.
 */
export interface ListStateStore {
  /** The state, and a token of its version for `install`. */
  read(key: ListKey): Promise<{ state: ListState | undefined; token: string }>;
  /** An atomic read-modify-write of one list's state, for the holder of the list's lock. */
  update(key: ListKey, change: (current: ListState | undefined) => ListState | undefined): Promise<void>;
  /**
   * Stores `next` only if the state is still at the version `token` was read at and nothing was
   * lost since (evicted, or Redis lost its data); says whether it did. For a reader filling the
   * cache with what it read from the platform: a write that ended meanwhile must win.
   */
  install(key: ListKey, token: string, next: ListState): Promise<boolean>;
  /** Drops every list state of one customer (customers/redact). */
  forgetCustomer(shop: string, customerGid: string): Promise<void>;
}

/** Bounds of the in-process store: customers kept, and the approximate bytes of their states. */
const MAX_CUSTOMERS = 50_000;
const MAX_BYTES = 64 * 1024 * 1024;

interface VersionedState {
  state: ListState;
  version: number;
}

interface CustomerEntry {
  lists: Map<string, VersionedState>;
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
 * evicted beyond MAX_CUSTOMERS or MAX_BYTES. Versions come from one counter, and a missing state's
 * token names how many states were dropped so far, so an install never lands on a state that was
 * dropped and written again after its reader looked.
 */
export function createLocalListStateStore(): ListStateStore {
  const customers = new Map<string, CustomerEntry>();
  let bytes = 0;
  let versions = 0;
  let drops = 0;
  registerProcessCache(() => {
    customers.clear();
    bytes = 0;
    drops += 1;
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
    drops += 1;
  };
  const tokenOf = (entry: VersionedState | undefined) => (entry ? `v${entry.version}` : `dropped${drops}`);
  const put = (key: ListKey, next: ListState | undefined) => {
    const id = customerKey(key.shop, key.customerGid);
    const entry = touch(id) ?? { lists: new Map<string, VersionedState>(), bytes: 0 };
    if (next) entry.lists.set(key.context, { state: next, version: ++versions });
    else entry.lists.delete(key.context);
    bytes -= entry.bytes;
    entry.bytes = [...entry.lists.values()].reduce((sum, { state }) => sum + estimateBytes(state), 0);
    if (entry.lists.size === 0) {
      customers.delete(id);
      return;
    }
    customers.set(id, entry);
    bytes += entry.bytes;
    while (customers.size > MAX_CUSTOMERS || bytes > MAX_BYTES) drop(customers.keys().next().value!);
  };
  const current = (key: ListKey) => touch(customerKey(key.shop, key.customerGid))?.lists.get(key.context);

  return {
    async read(key) {
      const entry = current(key);
      return { state: entry?.state, token: tokenOf(entry) };
    },
    async update(key, change) {
      put(key, change(current(key)?.state));
    },
    async install(key, token, next) {
      if (tokenOf(current(key)) !== token) return false;
      put(key, next);
      return true;
    },
    async forgetCustomer(shop, customerGid) {
      drop(customerKey(shop, customerGid));
    },
  };
}

/**
 * The shared store: each customer's list states are one hash in Redis (a field per list context),
 * so every instance sees every write at once; updates are compare-and-set, retried on a race.
 *
 * Hashes are named by the cache generation (decision 0026): while list locks are in PostgreSQL
 * there is none, and the store holds nothing (reads miss, writers' changes are dropped, fills do
 * not land), since writers there do not keep it current; when the locks are back in Redis a new
 * generation starts empty, so nothing cached before the fallback is read after it.
 */
export function createSharedListStateStore(hashes: SharedHashes): ListStateStore {
  const hashOf = (generation: string, shop: string, customerGid: string) =>
    `list-state:${generation}:${shop}:${customerGid}`;
  const parse = (text: string | undefined) => (text === undefined ? undefined : (JSON.parse(text) as ListState));
  return {
    async read(key) {
      const generation = await hashes.cacheGeneration();
      if (generation === undefined) return { state: undefined, token: "" };
      const hash = hashOf(generation, key.shop, key.customerGid);
      const { value, token } = await hashes.readVersioned(hash, key.context);
      return { state: parse(value), token: `${generation}|${token}` };
    },
    async update(key, change) {
      const generation = await hashes.cacheGeneration();
      if (generation === undefined) return;
      await hashes.update(
        hashOf(generation, key.shop, key.customerGid),
        key.context,
        (current) => {
          const next = change(parse(current));
          return next === undefined ? undefined : JSON.stringify(next);
        },
        LIST_STATE_TTL_MS,
      );
    },
    async install(key, token, next) {
      const generation = await hashes.cacheGeneration();
      const [readIn, versionToken] = splitToken(token);
      // Read in another generation (or none): what was read may predate writes the cache never saw.
      if (generation === undefined || readIn !== generation) return false;
      const hash = hashOf(generation, key.shop, key.customerGid);
      return hashes.install(hash, key.context, versionToken, JSON.stringify(next), LIST_STATE_TTL_MS);
    },
    async forgetCustomer(shop, customerGid) {
      // None: nothing is cached in this generation, and the last one's hashes are never read again
      // and expire within LIST_STATE_TTL_MS of their last change.
      const generation = await hashes.cacheGeneration();
      if (generation !== undefined) await hashes.remove(hashOf(generation, shop, customerGid));
    },
  };
}

function splitToken(token: string): [string | undefined, string] {
  const at = token.indexOf("|");
  return at < 0 ? [undefined, token] : [token.slice(0, at), token.slice(at + 1)];
}

let store: ListStateStore | undefined;

/** Shared through Redis when the instances coordinate there, in this process's memory otherwise. */
export function getListStateStore(): ListStateStore {
  const { sharedHashes } = getCoordinator();
  store ??= sharedHashes ? createSharedListStateStore(sharedHashes) : createLocalListStateStore();
  return store;
}

/**
 * The read side, for readers filling the cache with what they read (install refuses to land over
 * a write): changing a list's state is the lock holder's, through list-store/ (eslint.config.js).
 */
export const getListStateReader = (): Pick<ListStateStore, "read" | "install"> => getListStateStore();
