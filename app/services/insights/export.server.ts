import { ServiceError } from "~/lib/errors";
import type { AdminGraphqlClient } from "~/platform/admin-graphql.server";
import { readBulkOperation, readBulkResult, startBulkQuery } from "~/platform/bulk-operations.server";
import { saveItemsBulkQuery, toSaveItemLine, type SaveItemLine } from "~/services/records/save-item-lines";

export const EXPORT_COLUMNS = ["customer_gid", "list_context", "entity_type", "entity_gid", "saved_at"] as const;

/** Starts the bulk query of the shop's active saved items; the CSV is made from its result. */
export async function startExport(admin: AdminGraphqlClient) {
  const operation = await startBulkQuery(admin, saveItemsBulkQuery("active"));
  return readBulkOperation(admin, operation);
}

export const exportProgress = readBulkOperation;

function csvCell(value: string): string {
  // A list context comes from the storefront; a leading = + - @ would run as a formula in a spreadsheet.
  const safe = /^[=+\-@]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function csvRow(line: SaveItemLine): string {
  return (
    [line.customerGid, line.context, line.entityType, line.entityGid, line.savedAt].map(csvCell).join(",") + "\r\n"
  );
}

/**
 * The finished export as CSV, produced while the result file downloads: one line in, one row
 * out, so a million items never sit in memory. Items removed since the search index saw them
 * are left out.
 */
export async function exportCsv(admin: AdminGraphqlClient, operation: string): Promise<ReadableStream<Uint8Array>> {
  const bulk = await readBulkOperation(admin, operation);
  if (bulk.status !== "COMPLETED") {
    throw new ServiceError("VALIDATION_ERROR", `The export is not finished (status ${bulk.status})`);
  }
  const lines = readBulkResult(bulk.url);
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(EXPORT_COLUMNS.join(",") + "\r\n"));
    },
    async pull(controller) {
      // Pulled as the client reads, so a slow download holds back the platform read, not memory.
      for (;;) {
        const next = await lines.next();
        if (next.done) return controller.close();
        const line = toSaveItemLine(next.value);
        if (line?.active) return controller.enqueue(encoder.encode(csvRow(line)));
      }
    },
    async cancel() {
      await lines.return(undefined);
    },
  });
}
