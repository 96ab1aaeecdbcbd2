import { platformRefusal } from "~/platform/admin-graphql.server";
import { refusedAtCap, storageFullError } from "~/platform/metaobject-cap.server";
import { SAVE_LIST_DIRECTORY_TYPE, SAVE_LIST_TYPE } from "~/services/records/fields";
import type { ListFieldsWrite } from "~/services/records/list-values";
import {
  readNamedListRecords,
  readShareList,
  writeNamedListRecords,
  writeShareFields,
  type NamedList,
  type ShareList,
} from "~/services/records/save-list.server";
import { listDirectoryHandle } from "../handles.server";
import type { ListDirectory } from "../named-lists";
import { sharedItemsChanged, sharedLinksChanged } from "../shared-page-cache.server";
import { listHandleOf, type ListSession } from "./session.server";

/*
 * A list's own record (its name, deleted mark, index and share link) and the customer's
 * directory, read and written in a session: by handle (current, as the locks held make them),
 * each write only while the locks still are, and a write that changes which token opens which
 * list tells the shop's shared pages.
 */

/** The list (null: never written) with the customer's directory. */
export async function readListWithDirectory(
  session: ListSession,
  context: string,
): Promise<{ list: NamedList | null; directory: ListDirectory }> {
  const { owner } = session;
  return readNamedListRecords(owner.admin, listHandleOf(session, context), listDirectoryHandle(owner.customerGid));
}

/** The list as share links see it (null: never written). */
export function readShareRecord(session: ListSession, context: string): Promise<ShareList | null> {
  return readShareList(session.owner.admin, listHandleOf(session, context));
}

/**
 * Writes the list's fields and, when given, the directory's named lists (and its stored lists,
 * when given), in one request.
 */
export async function writeListRecord(
  session: ListSession,
  context: string,
  fields: ListFieldsWrite,
  directory: (Pick<ListDirectory, "named"> & Partial<ListDirectory>) | null,
): Promise<NamedList> {
  const { owner, held } = session;
  await held.assertHeld();
  const written = await writeNamedListRecords(owner.admin, {
    listHandle: listHandleOf(session, context),
    directoryHandle: listDirectoryHandle(owner.customerGid),
    customerGid: owner.customerGid,
    fields,
    directory,
  });
  if (refusedAtCap(written.listErrors)) throw storageFullError(owner.shop, SAVE_LIST_TYPE);
  if (refusedAtCap(written.directoryErrors)) throw storageFullError(owner.shop, SAVE_LIST_DIRECTORY_TYPE);
  if (!written.list || (directory !== null && !written.directoryWritten)) {
    throw platformRefusal("The platform refused to write the list; retry shortly", [
      ...written.listErrors,
      ...written.directoryErrors,
    ]);
  }
  // A deleted list's link, or a replaced one, must stop opening it now.
  if (fields.share !== undefined) await sharedLinksChanged(owner.shop);
  return written.list;
}

/** Writes the list's name; its shared page, which shows it, is read again. */
export async function renameListRecord(session: ListSession, context: string, name: string): Promise<NamedList> {
  const renamed = await writeListRecord(session, context, { name }, null);
  await sharedItemsChanged(session.owner.shop, [listHandleOf(session, context)]);
  return renamed;
}

/** Writes the list's share link (null: none); whatever token opened it before stops. */
export async function writeShareRecord(
  session: ListSession,
  list: ShareList,
  share: { hash: string; name: string | null } | null,
): Promise<void> {
  await session.held.assertHeld();
  await writeShareFields(session.owner.admin, list.id, share);
  await sharedLinksChanged(session.owner.shop);
}
