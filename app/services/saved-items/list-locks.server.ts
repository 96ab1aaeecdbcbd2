import { LockUnavailableError, type HeldLocks } from "~/infrastructure/coordination/coordinator.server";
import { getCoordinator } from "~/infrastructure/coordination/shared-coordinator.server";
import { ServiceError } from "~/lib/errors";
import type { Caller } from "~/services/caller";
import { listDirectoryHandle, listHandle } from "./handles.server";

/*
 * The locks of a customer's lists, which every writer of them takes (the item write path, the
 * list operations, retention): their keys and how they are held. The fences they carry
 * (HeldLocks) go with each write made under them.
 */

/** The lock every writer of one of a customer's lists holds, item writes and list operations alike. */
export function listLockKey(caller: Pick<Caller, "shop" | "customerGid">, context: string): string {
  return `list:${caller.shop}/${listHandle(caller.customerGid, context)}`;
}

/**
 * The lock of the customer's directory (save_list_directory), held by whatever may make or drop a
 * list, so the lists the bound counts are exact (docs/decisions/0017-bounded-storage.md).
 */
export function directoryLockKey(caller: Pick<Caller, "shop" | "customerGid">): string {
  return `lists:${caller.shop}/${listDirectoryHandle(caller.customerGid)}`;
}

/** Runs `work` holding the locks (across instances); locks that cannot be had are a retryable INTERNAL_ERROR. */
export async function withWriteLocks<T>(keys: string[], work: (held: HeldLocks) => Promise<T>): Promise<T> {
  try {
    return await getCoordinator().withLocks(keys, work);
  } catch (error) {
    if (error instanceof LockUnavailableError) {
      throw new ServiceError(
        "INTERNAL_ERROR",
        "The list is busy or the service cannot coordinate right now; retry shortly",
        {
          cause: error,
        },
      );
    }
    throw error;
  }
}
