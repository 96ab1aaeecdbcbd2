import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { isServiceError } from "~/lib/errors";
import type { AdminGraphqlClient } from "~/platform/admin-graphql.server";
import { exportCsv, exportProgress, startExport } from "~/services/insights/export.server";
import { advanceInsightsRefresh, startInsightsRefresh } from "~/services/insights/insights.server";
import { adminFormAction, type AdminFormRefusal } from "./admin-form.server";
import { parseFormBody, parseQuery } from "./request-input.server";

const BulkOperationId = z.string().regex(/^gid:\/\/shopify\/BulkOperation\/\d+$/, "must be a BulkOperation GID");

const InsightsActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("refresh") }),
  z.object({ intent: z.literal("refresh-progress"), operation: BulkOperationId }),
  z.object({ intent: z.literal("export") }),
  z.object({ intent: z.literal("export-progress"), operation: BulkOperationId }),
]);

const ExportQuerySchema = z.object({ operation: BulkOperationId });

/** How the page learns the outcome of an action: progress, or the error's code and message. */
export type InsightsActionResult =
  | {
      ok: true;
      kind: "refresh" | "export";
      operation: string;
      status: string;
      objectCount: number;
      done: boolean;
    }
  | AdminFormRefusal;

async function run(admin: AdminGraphqlClient, shop: string, request: Request): Promise<InsightsActionResult> {
  const input = await parseFormBody(request, InsightsActionSchema);
  switch (input.intent) {
    case "refresh":
      return { ok: true, kind: "refresh", ...(await startInsightsRefresh(admin, shop)) };
    case "refresh-progress":
      return { ok: true, kind: "refresh", ...(await advanceInsightsRefresh(admin, input.operation)) };
    case "export":
    case "export-progress": {
      const bulk = input.intent === "export" ? await startExport(admin) : await exportProgress(admin, input.operation);
      return {
        ok: true,
        kind: "export",
        operation: bulk.id,
        status: bulk.status,
        objectCount: bulk.objectCount,
        done: bulk.status === "COMPLETED",
      };
    }
  }
}

/** The Insights page's actions (start or poll a refresh or an export). */
export function insightsAction(
  admin: AdminGraphqlClient,
  shop: string,
  request: Request,
): Promise<InsightsActionResult> {
  return adminFormAction(() => run(admin, shop, request));
}

/** The finished export as a CSV download, streamed from the bulk operation's result. */
export async function insightsExportResponse(
  admin: AdminGraphqlClient,
  request: Request,
  context: AppLoadContext,
): Promise<Response> {
  try {
    const { operation } = parseQuery(request, context, ExportQuerySchema);
    const body = await exportCsv(admin, operation);
    return new Response(body, {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="saved-items-${operation.split("/").pop()}.csv"`,
        "Cache-Control": "no-store",
      },
    });
  } catch (error) {
    if (!isServiceError(error)) throw error;
    return new Response(error.message, { status: error.status, headers: { "Content-Type": "text/plain" } });
  }
}
