import type { AdminGraphqlClient } from "~/platform/admin-graphql.server";
import { pacedRequest, type BucketPacer } from "~/platform/bucket-pacer.server";
import { deleteItemsById, readItemRecords } from "~/services/records/metaobject-store.server";
import { dropRetainedList, readRetainedList, writeRemovedItems } from "~/services/records/retained-list.server";
import type { RemovedItems } from "~/services/records/stored-values";
import { listDirectoryHandle } from "../handles.server";
import { withoutItems, withPendingItems, withRemoved } from "../list-state";
import { sharedLinksChanged } from "../shared-page-cache.server";
import { planRetention, retainedListOf } from "../storage-bounds";
import { listHandleOf, updateCachedState, withListSession } from "./session.server";

/**
 * One list's retention, under its lock and its customer's directory's: decided again from the
 * record read by handle (current), the due items checked by handle, deleted, then the record
 * written (or, emptied for the window, deleted and dropped from the directory), and the cache left
 * exact. A lock another holder has is the coordinator's LockUnavailableError: the page is handed back.
 */
export async function retainList(
  owner: { shop: string; customerGid: string; admin: AdminGraphqlClient },
  context: string,
  pacer: BucketPacer,
  cutoffMs: number,
): Promise<void> {
  const { admin, customerGid, shop } = owner;
  const directoryHandle = listDirectoryHandle(customerGid);
  await withListSession(owner, [context], { directory: true, busy: "rethrow" }, async (session) => {
    const options = pacedRequest(pacer, () => session.held.assertHeld());
    const read = await readRetainedList(admin, listHandleOf(session, context), directoryHandle, options);
    const list = read.list && retainedListOf(read.list);
    if (!list || !read.list) return;
    const plan = planRetention(list, cutoffMs);
    if (plan.deleteItems.length === 0 && !plan.dropList) return;

    // Only an item that is removed, and is still the one removed (same id), is deleted; an entry
    // whose item is active again or gone only leaves the list's removed items.
    const handles = plan.deleteItems.map((item) => item.handle);
    const { items } = await readItemRecords(admin, handles, [], undefined, options);
    const deletable = plan.deleteItems.filter(({ handle, id }) => {
      const record = items.get(handle);
      return record?.id === id && record.status === "removed";
    });
    const deleting = deletable.map((item) => item.handle);
    // While the deletes are in flight the items, and the list's removed items, are unknown to the cache.
    await updateCachedState(session, context, (state) =>
      withRemoved(withPendingItems(state, deleting, Date.now()), undefined),
    );
    const gone = await deleteItemsById(
      admin,
      deletable.map((item) => item.id),
      options,
    );
    const failed: Record<string, RemovedItems[string]> = {};
    for (const { handle, id } of deletable) {
      const entry = list.removed[handle];
      if (!gone.has(id) && entry) failed[handle] = entry;
    }
    const removed: RemovedItems = { ...plan.removed, ...failed };
    // A list one of whose items is active (a write whose answer was lost) is not empty, whatever it says.
    const anyActive = handles.some((handle) => items.get(handle)?.status === "active");
    const dropped = plan.dropList && !anyActive && Object.keys(failed).length === 0;
    const counted = read.directoryLists;
    let written: boolean;
    if (dropped) {
      const lists = counted.filter((other) => other !== context);
      written = await dropRetainedList(admin, { id: read.list.id, directoryHandle, customerGid, lists }, options);
      // A link to the list must stop opening now, not when its cached page expires.
      if (written) await sharedLinksChanged(shop);
    } else {
      written = await writeRemovedItems(admin, listHandleOf(session, context), removed, options);
    }
    // The deleted items are "no item" now: forgotten, a later read finds them gone. The list's removed
    // items are known again only when written to a list the directory counts.
    const known = written && !dropped && counted.includes(context) ? removed : undefined;
    await updateCachedState(session, context, (state) => withRemoved(withoutItems(state, deleting), known));
  });
}
