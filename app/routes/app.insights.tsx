import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useFetcher, useLoaderData, useRevalidator } from "@remix-run/react";
import {
  Badge,
  Banner,
  BlockStack,
  Button,
  ButtonGroup,
  DataTable,
  EmptyState,
  InlineGrid,
  InlineStack,
  Layout,
  Page,
  SkeletonBodyText,
  Spinner,
  Text,
} from "@shopify/polaris";
import { useEffect, useState } from "react";
import { BarChart } from "~/components/bar-chart";
import { TitledCard } from "~/components/titled-card";
import { insightsAction, type InsightsActionResult } from "~/edge/admin-insights.server";
import { pageTitle } from "~/components/page-title";
import { requireAdminShop } from "~/edge/front-doors/admin-shop.server";
import { MOVES_DAYS } from "~/services/insights/aggregate";
import { csvDownloadProblem } from "~/services/merchant-pages/csv-download";
import type { CatalogueEntry } from "~/services/insights/catalogue.server";
import { getInsightsPage } from "~/services/insights/insights.server";

export const meta = pageTitle("Insights");

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { admin } = await requireAdminShop(request);
  return getInsightsPage(admin);
};

export const action = async ({ request }: ActionFunctionArgs) => {
  const { admin, shop } = await requireAdminShop(request);
  return insightsAction(admin, shop, request);
};

const POLL_MS = 2_000;
const formatDateTime = (iso: string) =>
  new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }) + " UTC";
const number = (value: number) => value.toLocaleString("en-US");

/** Polls a running bulk operation through the page's action until it is done or fails. */
function useBulkProgress(onDone: () => void) {
  const fetcher = useFetcher<InsightsActionResult>();
  const result = fetcher.data;
  useEffect(() => {
    if (!result?.ok || fetcher.state !== "idle") return;
    if (result.done) {
      onDone();
      return;
    }
    if (!["CREATED", "RUNNING"].includes(result.status)) return;
    const timer = setTimeout(
      () => fetcher.submit({ intent: `${result.kind}-progress`, operation: result.operation }, { method: "post" }),
      POLL_MS,
    );
    return () => clearTimeout(timer);
    // onDone is a fresh closure every render; the poll depends only on the latest result.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [result, fetcher.state]);
  const running =
    fetcher.state !== "idle" || Boolean(result?.ok && !result.done && ["CREATED", "RUNNING"].includes(result.status));
  return { fetcher, result, running };
}

function ProgressLine({ result, what }: { result: InsightsActionResult | undefined; what: string }) {
  if (!result) return null;
  if (!result.ok) return <Banner tone="warning">{result.message}</Banner>;
  if (result.done) return null;
  if (!["CREATED", "RUNNING"].includes(result.status))
    return <Banner tone="critical">{`The platform stopped the ${what} (${result.status}). Try again later.`}</Banner>;
  return (
    <InlineStack gap="200" blockAlign="center">
      <Spinner size="small" accessibilityLabel={`${what} running`} />
      <Text as="span">{`${what}: ${number(result.objectCount)} saved items read so far`}</Text>
    </InlineStack>
  );
}

function EntryTable({
  rows,
  catalogue,
  heading,
}: {
  rows: { gid: string; saves: number }[];
  catalogue: Record<string, CatalogueEntry>;
  heading: string;
}) {
  if (rows.length === 0) return <Text as="p" tone="subdued">{`No ${heading.toLowerCase()} saved yet.`}</Text>;
  return (
    <DataTable
      columnContentTypes={["text", "numeric", "numeric", "text"]}
      headings={[heading, "Saves", "Price", "Availability"]}
      rows={rows.map(({ gid, saves }) => {
        const entry = catalogue[gid];
        return [
          entry?.title ?? gid,
          number(saves),
          entry ? `${entry.price} ${entry.currencyCode}` : "—",
          entry ? (
            <Badge tone={entry.available ? "success" : "critical"}>
              {entry.available ? "Available" : "Unavailable"}
            </Badge>
          ) : (
            <Badge>Not in catalogue</Badge>
          ),
        ];
      })}
    />
  );
}

export default function Insights() {
  const { summary, catalogue, refresh } = useLoaderData<typeof loader>();
  const revalidator = useRevalidator();
  const refreshing = useBulkProgress(() => revalidator.revalidate());
  const exporting = useBulkProgress(() => undefined);
  const [days, setDays] = useState<30 | 90>(30);
  const exportResult = exporting.result;
  // A refresh started before this page loaded (another tab, an earlier visit) is picked up again.
  const unfinished = refresh.operation && summary?.operation !== refresh.operation ? refresh.operation : null;
  useEffect(() => {
    if (unfinished)
      refreshing.fetcher.submit({ intent: "refresh-progress", operation: unfinished }, { method: "post" });
    // Once per load of the figures; the poll itself carries on from the answer.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [unfinished]);
  const canRefresh = refresh.allowed;

  const startRefresh = () => refreshing.fetcher.submit({ intent: "refresh" }, { method: "post" });
  const [downloadProblem, setDownloadProblem] = useState<string | null>(null);
  const download = async (operation: string) => {
    // App Bridge's fetch adds the session token; the server streams, the browser saves the file.
    const response = await fetch(`/app/insights-export?operation=${encodeURIComponent(operation)}`);
    const contentType = response.headers.get("Content-Type");
    const problem = csvDownloadProblem({
      status: response.status,
      contentType,
      text: contentType?.startsWith("text/plain") ? await response.text() : undefined,
    });
    setDownloadProblem(problem);
    if (problem) return;
    const url = URL.createObjectURL(await response.blob());
    const link = Object.assign(document.createElement("a"), { href: url, download: "saved-items.csv" });
    link.click();
    URL.revokeObjectURL(url);
  };

  const refreshAction = {
    content: "Refresh",
    onAction: startRefresh,
    loading: refreshing.running,
    disabled: !canRefresh || refreshing.running,
    helpText: canRefresh ? undefined : `Next refresh possible at ${formatDateTime(refresh.nextAllowedAt!)}`,
  };

  return (
    <Page
      title="Insights"
      subtitle={[
        summary ? `Figures as of ${formatDateTime(summary.computedAt)}` : null,
        canRefresh || !refresh.nextAllowedAt ? null : `next refresh from ${formatDateTime(refresh.nextAllowedAt)}`,
      ]
        .filter(Boolean)
        .join(" · ")}
      backAction={{ content: "Home", url: "/app" }}
      primaryAction={refreshAction}
    >
      <Layout>
        <Layout.Section>
          <ProgressLine result={refreshing.result} what="Refresh" />
        </Layout.Section>
        {!summary ? (
          <Layout.Section>
            <TitledCard title="Saved items at a glance">
              {refreshing.running ? (
                <SkeletonBodyText lines={6} />
              ) : (
                <EmptyState
                  heading="No insights yet"
                  action={{ content: "Build insights", onAction: startRefresh, disabled: !canRefresh }}
                  image=""
                >
                  <p>
                    Insights count what your shoppers save: saves per day, the most-saved products and variants, this
                    week against last week. They are built on Shopify from your saved items, usually within minutes.
                  </p>
                </EmptyState>
              )}
            </TitledCard>
          </Layout.Section>
        ) : (
          <>
            <Layout.Section>
              <InlineGrid columns={{ xs: 1, md: 3 }} gap="400">
                <TitledCard title="Shoppers with active lists">
                  <Text as="p" variant="heading2xl">
                    {number(summary.activeShoppers)}
                  </Text>
                </TitledCard>
                <TitledCard title="Active saved items">
                  <Text as="p" variant="heading2xl">
                    {number(summary.activeItems)}
                  </Text>
                </TitledCard>
                <TitledCard title="Saves this week">
                  <Text as="p" variant="heading2xl">
                    {number(summary.week.thisWeek)}
                  </Text>
                  <Text as="p" tone="subdued">{`${number(summary.week.lastWeek)} the week before`}</Text>
                </TitledCard>
              </InlineGrid>
            </Layout.Section>
            <Layout.Section>
              <TitledCard title={`Saves per day, last ${days} days`}>
                <ButtonGroup variant="segmented">
                  <Button pressed={days === 30} onClick={() => setDays(30)}>
                    30 days
                  </Button>
                  <Button pressed={days === 90} onClick={() => setDays(90)}>
                    90 days
                  </Button>
                </ButtonGroup>
                <BarChart
                  title="Saves per day"
                  data={summary.savesPerDay.slice(-days).map(({ date, saves }) => ({ label: date, value: saves }))}
                />
              </TitledCard>
            </Layout.Section>
            {summary.listsPerShopper && summary.saveForLater && (
              <Layout.Section>
                <InlineGrid columns={{ xs: 1, md: 2 }} gap="400">
                  <TitledCard title="Lists per shopper">
                    <Text as="p" variant="headingLg">
                      {`${summary.listsPerShopper.average.toFixed(2)} on average`}
                    </Text>
                    <DataTable
                      columnContentTypes={["text", "numeric"]}
                      headings={["Lists with saved items", "Shoppers"]}
                      rows={summary.listsPerShopper.distribution.map(({ lists, shoppers }, index, all) => [
                        index === all.length - 1 ? `${lists} or more` : String(lists),
                        number(shoppers),
                      ])}
                    />
                  </TitledCard>
                  <TitledCard title={`Saved for later from the cart, last ${MOVES_DAYS} days`}>
                    <DataTable
                      columnContentTypes={["text", "numeric"]}
                      headings={["Save for later", "Items"]}
                      rows={[
                        ["Moved to saved for later", number(summary.saveForLater.moves)],
                        ["Moved back since", number(summary.saveForLater.movedBack)],
                        ["Waiting in saved for later now", number(summary.saveForLater.waiting)],
                      ]}
                    />
                  </TitledCard>
                </InlineGrid>
              </Layout.Section>
            )}
            <Layout.Section>
              <TitledCard title="Most-saved products">
                <EntryTable rows={summary.topProducts} catalogue={catalogue} heading="Product" />
              </TitledCard>
            </Layout.Section>
            <Layout.Section>
              <TitledCard title="Most-saved variants">
                <EntryTable rows={summary.topVariants} catalogue={catalogue} heading="Variant" />
              </TitledCard>
            </Layout.Section>
            <Layout.Section>
              <TitledCard title="Saved most this week, against last week">
                <DataTable
                  columnContentTypes={["text", "numeric", "numeric"]}
                  headings={["Item", "This week", "Last week"]}
                  rows={summary.week.top.map((entry) => [
                    catalogue[entry.gid]?.title ?? entry.gid,
                    number(entry.thisWeek),
                    number(entry.lastWeek),
                  ])}
                />
              </TitledCard>
            </Layout.Section>
          </>
        )}
        <Layout.Section>
          <TitledCard title="Export saved items">
            <BlockStack gap="200">
              <Text as="p" tone="subdued">
                A CSV of every active saved item: customer GID, list, entity type and GID, saved at. Built on Shopify as
                a bulk operation, so it works for any number of items.
              </Text>
              <ProgressLine result={exportResult} what="Export" />
              {downloadProblem ? <Banner tone="critical">{downloadProblem}</Banner> : null}
              <InlineStack gap="200">
                <Button
                  onClick={() => exporting.fetcher.submit({ intent: "export" }, { method: "post" })}
                  loading={exporting.running}
                  disabled={exporting.running}
                >
                  Prepare CSV
                </Button>
                {exportResult?.ok && exportResult.done && (
                  <Button variant="primary" onClick={() => void download(exportResult.operation)}>
                    {`Download CSV (${number(exportResult.objectCount)} items)`}
                  </Button>
                )}
              </InlineStack>
            </BlockStack>
          </TitledCard>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
