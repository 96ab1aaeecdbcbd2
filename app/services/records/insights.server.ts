import { platformRefusal, runAdminGraphql, type AdminGraphqlClient } from "~/platform/admin-graphql.server";
import { fieldValue, INSIGHTS_FIELDS, INSIGHTS_TYPE } from "./fields";
import { InsightsSummarySchema, type InsightsSummary } from "./insights-summary";

// One entry per shop, so a fixed handle addresses it without a search.
const INSIGHTS_HANDLE = "shop-insights";

export interface StoredInsights {
  summary: InsightsSummary | null;
  /** The refresh started last, whether or not it has finished. */
  refreshOperation: string | null;
  refreshStartedAt: string | null;
}

const READ = `#graphql
  query SavedItemsReadInsights($handle: MetaobjectHandleInput!) {
    metaobjectByHandle(handle: $handle) { id fields { key value } }
  }`;

const WRITE = `#graphql
  mutation SavedItemsWriteInsights($handle: MetaobjectHandleInput!, $metaobject: MetaobjectUpsertInput!) {
    metaobjectUpsert(handle: $handle, metaobject: $metaobject) {
      metaobject { id }
      userErrors { field message code }
    }
  }`;

const handle = { type: INSIGHTS_TYPE, handle: INSIGHTS_HANDLE };

export async function readStoredInsights(admin: AdminGraphqlClient): Promise<StoredInsights> {
  const data = await runAdminGraphql(admin, READ, { handle });
  const value = (key: string) => fieldValue(data.metaobjectByHandle?.fields ?? [], key);
  const summaryText = value(INSIGHTS_FIELDS.summary);
  let summary: InsightsSummary | null = null;
  if (summaryText) {
    // A summary written by an older shape of the app is rebuilt on the next refresh, not shown wrong.
    const parsed = InsightsSummarySchema.safeParse(JSON.parse(summaryText));
    summary = parsed.success ? parsed.data : null;
  }
  return {
    summary,
    refreshOperation: value(INSIGHTS_FIELDS.refreshOperation),
    refreshStartedAt: value(INSIGHTS_FIELDS.refreshStartedAt),
  };
}

export async function writeStoredInsights(
  admin: AdminGraphqlClient,
  fields: { summary?: InsightsSummary; refreshOperation?: string; refreshStartedAt?: string },
): Promise<void> {
  const values: { key: string; value: string }[] = [];
  if (fields.summary) values.push({ key: INSIGHTS_FIELDS.summary, value: JSON.stringify(fields.summary) });
  if (fields.refreshOperation) values.push({ key: INSIGHTS_FIELDS.refreshOperation, value: fields.refreshOperation });
  if (fields.refreshStartedAt) values.push({ key: INSIGHTS_FIELDS.refreshStartedAt, value: fields.refreshStartedAt });
  const data = await runAdminGraphql(admin, WRITE, {
    handle,
    metaobject: { fields: values },
  });
  const userErrors = data.metaobjectUpsert?.userErrors;
  if (!userErrors || userErrors.length > 0) {
    throw platformRefusal("The platform refused to store the insights", userErrors);
  }
}
