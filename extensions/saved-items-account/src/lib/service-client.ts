import {
  createCustomerAccountClient,
  type CustomerAccountClientOptions,
  type Schemas,
} from "../../../../packages/client/src/index";
import type {
  DeleteListResult,
  ItemIdentity,
  ListQuery,
  ListResult,
  ListsResult,
  SavedList,
  SaveOperationResult,
  ShareLink,
  ShareRevokeResult,
} from "../../../shared/wire";
import { trackedCalls } from "../../../shared/in-flight";

export interface SavedItemsClientOptions extends Omit<CustomerAccountClientOptions, "baseUrl"> {
  /** The app's origin (and path prefix, if any), without a trailing slash. */
  appUrl: string;
}

export interface SavedItemsClient {
  list(query: ListQuery): Promise<ListResult>;
  remove(identity: ItemIdentity): Promise<SaveOperationResult>;
  createShareLink(input: { context: string; displayName?: string }): Promise<ShareLink>;
  revokeShareLink(input: { context: string }): Promise<ShareRevokeResult>;
  lists(query: { limit?: number; cursor?: string | null }): Promise<ListsResult>;
  createList(input: { name: string; context?: string }): Promise<SavedList>;
  renameList(input: { context: string; name: string }): Promise<SavedList>;
  deleteList(input: { context: string }): Promise<DeleteListResult>;
}

/**
 * The customer-account namespace of the service as the extension's views call it, on the client
 * package (packages/client): the token exchange, its renewal and the retry rules are the package's.
 */
export function createSavedItemsClient({ appUrl, ...options }: SavedItemsClientOptions): SavedItemsClient {
  const service = createCustomerAccountClient({ baseUrl: appUrl, ...options });
  return trackedCalls<SavedItemsClient>({
    list: ({ context, limit, cursor }) => service.list({ context, limit, ...(cursor ? { cursor } : {}) }),
    // The views hold an entity type as a listed item carried it (wire.ts types it as any string);
    // the service validates it either way.
    remove: ({ context, entityType, entityGid }) =>
      service.remove({ context, entityType: entityType as Schemas["EntityType"], entityGid }),
    createShareLink: ({ context, displayName }) =>
      service.shareCreate(displayName ? { context, displayName } : { context }),
    revokeShareLink: ({ context }) => service.shareRevoke({ context }),
    lists: ({ limit, cursor }) => service.lists({ limit, ...(cursor ? { cursor } : {}) }),
    createList: ({ name, context }) => service.createList(context ? { name, context } : { name }),
    renameList: ({ context, name }) => service.renameList({ context, name }),
    deleteList: ({ context }) => service.deleteList({ context }),
  });
}
