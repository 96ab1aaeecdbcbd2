import { registerProcessCache } from "~/lib/process-caches.server";
import { getCoordinator } from "./shared-coordinator.server";

/**
 * Small state every instance must agree on (webhook ids already handled, the last price seen of a
 * variant): in the coordinator's shared hashes with Redis, else in this process, bounded. With
 * Redis unreachable this throws CoordinatorUnavailableError and the caller's work does not run.
 */

/** Entries one process keeps at most without Redis; the oldest written are forgotten first. */
export const LOCAL_FIELD_LIMIT = 50_000;

const local = new Map<string, string>();
registerProcessCache(() => local.clear());

/**
 * Replaces the field with change(current) atomically, or deletes it when change gives undefined.
 * change may run more than once (Redis retries when another instance wrote in between): it must
 * be pure, and what the caller keeps from it must come from its last run.
 */
export async function updateSharedField(
  key: string,
  field: string,
  change: (current: string | undefined) => string | undefined,
  ttlMs: number,
): Promise<void> {
  const shared = getCoordinator().sharedHashes;
  if (shared) return shared.update(key, field, change, ttlMs);
  const localKey = `${key}\n${field}`;
  const next = change(local.get(localKey));
  local.delete(localKey);
  if (next === undefined) return;
  local.set(localKey, next);
  if (local.size > LOCAL_FIELD_LIMIT) local.delete(local.keys().next().value!);
}

/** The field's current value, or undefined. */
export async function readSharedField(key: string, field: string): Promise<string | undefined> {
  const shared = getCoordinator().sharedHashes;
  return shared ? shared.read(key, field) : local.get(`${key}\n${field}`);
}

/**
 * True the first time `id` is claimed under `scope` within at least ttlMs (across instances);
 * false after. Ids go into one hash per window of ttlMs, and a claim looks at the window before
 * too: a busy scope's hash stops growing when its window ends and expires after the next one.
 */
export async function claimOnce(scope: string, id: string, ttlMs: number): Promise<boolean> {
  const window = Math.floor(Date.now() / ttlMs);
  if ((await readSharedField(`once:${scope}:${window - 1}`, id)) !== undefined) return false;
  let claimed = false;
  await updateSharedField(
    `once:${scope}:${window}`,
    id,
    (current) => {
      claimed = current === undefined;
      return "1";
    },
    2 * ttlMs,
  );
  return claimed;
}
