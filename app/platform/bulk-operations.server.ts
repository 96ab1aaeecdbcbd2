import { ServiceError } from "~/lib/errors";
import { platformRefusal, runAdminGraphql, type AdminGraphqlClient } from "./admin-graphql.server";
import type { SavedItemsBulkOperationStatusQuery } from "~/types/admin.generated";
import { platformFetch } from "./platform-fetch.server";

type BulkOperationNode = NonNullable<SavedItemsBulkOperationStatusQuery["bulkOperation"]>;
export type BulkOperationStatus = BulkOperationNode["status"];

export interface BulkOperationView {
  id: string;
  status: BulkOperationStatus;
  /** Nodes written so far; the platform's progress figure. */
  objectCount: number;
  errorCode: BulkOperationNode["errorCode"] | null;
  /** The JSONL result; null until COMPLETED, and null when the query matched nothing. */
  url: string | null;
}

const RUN_BULK_QUERY = `#graphql
  mutation SavedItemsRunBulkQuery($query: String!) {
    bulkOperationRunQuery(query: $query) {
      bulkOperation { id }
      userErrors { field message code }
    }
  }`;

const BULK_OPERATION = `#graphql
  query SavedItemsBulkOperationStatus($id: ID!) {
    bulkOperation(id: $id) { id status objectCount errorCode url }
  }`;

// A result file of a million save_items is a few hundred MB; the read is streamed, so the bound
// only guards against a transfer that stalls for good.
const RESULT_DOWNLOAD_TIMEOUT_MS = 15 * 60 * 1000;

/** Starts a bulk query; the platform runs it in the background at no cost to the shop's rate limit. */
export async function startBulkQuery(admin: AdminGraphqlClient, query: string): Promise<string> {
  const data = await runAdminGraphql(admin, RUN_BULK_QUERY, { query });
  const { bulkOperation, userErrors = [] } = data.bulkOperationRunQuery ?? {};
  if (!bulkOperation) {
    const inProgress = userErrors.some(
      (error) => error.code === "OPERATION_IN_PROGRESS" || error.code === "LIMIT_REACHED",
    );
    throw inProgress
      ? new ServiceError("RATE_LIMITED", "Another export or refresh is running for this shop; try again shortly", {
          retryAfterSeconds: 60,
        })
      : platformRefusal("The platform refused the bulk query", userErrors);
  }
  return bulkOperation.id;
}

/** The operation's progress; NOT_FOUND when the id is not one of this shop's operations. */
export async function readBulkOperation(admin: AdminGraphqlClient, id: string): Promise<BulkOperationView> {
  const { bulkOperation } = await runAdminGraphql(admin, BULK_OPERATION, { id });
  if (!bulkOperation) throw new ServiceError("NOT_FOUND", "No such bulk operation for this shop");
  return {
    ...bulkOperation,
    objectCount: Number(bulkOperation.objectCount),
    errorCode: bulkOperation.errorCode ?? null,
    url: bulkOperation.url ?? null,
  };
}

/**
 * The result file's nodes one at a time, read as the bytes arrive: a million lines never sit in
 * memory together. A missing URL (the query matched nothing) yields nothing.
 */
export async function* readBulkResult(url: string | null): AsyncGenerator<unknown> {
  if (!url) return;
  const response = await platformFetch(url, { timeoutMs: RESULT_DOWNLOAD_TIMEOUT_MS });
  if (!response.ok || !response.body) {
    await response.arrayBuffer().catch(() => undefined);
    throw new ServiceError("PLATFORM_UPSTREAM_ERROR", `The bulk result download answered HTTP ${response.status}`);
  }
  let pending = "";
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  try {
    for (;;) {
      const { done, value: chunk } = await reader.read();
      if (done) break;
      pending += chunk;
      const lines = pending.split("\n");
      pending = lines.pop()!;
      for (const line of lines) if (line.trim()) yield JSON.parse(line);
    }
    if (pending.trim()) yield JSON.parse(pending);
  } finally {
    // A reader that stops early (the merchant cancels the download) ends the transfer too.
    await reader.cancel().catch(() => undefined);
  }
}
