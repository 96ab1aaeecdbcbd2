import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useFetcher, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { Banner, BlockStack, Box, Button, InlineStack, Layout, Page, Text, TextField } from "@shopify/polaris";
import { TitledCard } from "~/components/titled-card";
import { getEnv } from "~/config/env.server";
import { pageTitle } from "~/components/page-title";
import { requireAdminShop } from "~/edge/front-doors/admin-shop.server";
import { lowStockAction, type LowStockActionResult } from "~/edge/admin-low-stock.server";
import { readLowStockThreshold } from "~/services/installs/shop-state.server";
import { buildSetupGuide } from "~/services/merchant-pages/setup-guide.server";
import { readStorageUsage } from "~/services/merchant-pages/storage-usage.server";
import { savedByStatus } from "~/services/saved-by/saved-by-grant.server";
import { flowTriggerStatuses } from "~/services/flow/flow-triggers.server";

export const meta = pageTitle("Setup");

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { shop, plan, admin } = await requireAdminShop(request);
  const env = getEnv();
  return {
    plan: plan.key,
    ...buildSetupGuide({ shop, plan, appUrl: env.SHOPIFY_APP_URL, apiKey: env.SHOPIFY_API_KEY }),
    flowTriggers: await flowTriggerStatuses(shop),
    lowStockThreshold: await readLowStockThreshold(shop),
    storage: await readStorageUsage(shop, admin),
    savedBy: await savedByStatus(shop),
    // Flow in the shop's admin: the one documented link. A template's deep link needs a released
    // flow_template (a .flow exported from the Flow editor) and has no documented URL form; neither
    // has pre-selecting a trigger (docs/reach.md, "Flow templates: not shipped, and why").
    flowUrl: `https://${shop}/admin/apps/flow`,
  };
};

export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop } = await requireAdminShop(request);
  return lowStockAction(shop, request);
};

function CopyableExample({ title, code }: { title: string; code: string }) {
  const copy = async () => {
    await navigator.clipboard.writeText(code);
    // App Bridge's global; read at click time so the page still renders where App Bridge is absent.
    if (typeof shopify !== "undefined") shopify.toast.show("Copied");
  };
  return (
    <BlockStack gap="200">
      <InlineStack align="space-between" blockAlign="center">
        <Text as="h3" variant="headingSm">
          {title}
        </Text>
        <Button onClick={copy}>Copy</Button>
      </InlineStack>
      <Box background="bg-surface-secondary" padding="300" borderRadius="200">
        {/* The block scrolls sideways on a narrow screen: focusable and named, so a keyboard can scroll it too. */}
        <pre tabIndex={0} role="region" aria-label={title} style={{ margin: 0, fontSize: 13, overflowX: "auto" }}>
          <code>{code}</code>
        </pre>
      </Box>
    </BlockStack>
  );
}

type Guide = ReturnType<typeof useLoaderData<typeof loader>>["headless"];

function ChannelSection({ title, intro, guide }: { title: string; intro: string; guide: Guide }) {
  return (
    <TitledCard title={title}>
      <Text as="p">{intro}</Text>
      {guide.enabled ? (
        guide.examples.map((example) => <CopyableExample key={example.title} {...example} />)
      ) : (
        <Banner tone="info" action={{ content: "See plans", url: "/app/plans" }}>
          {`Included from the ${guide.requiredPlan} plan.`}
        </Banner>
      )}
    </TitledCard>
  );
}

/** In UTC, so the server's render and the browser's hydration print the same text. */
const utcMinute = (iso: string) => `${iso.slice(0, 16).replace("T", " ")} UTC`;

type FlowTriggers = ReturnType<typeof useLoaderData<typeof loader>>["flowTriggers"];

/** Saved item low in stock fires when a saved variant's inventory falls to or below this. */
function LowStockThreshold({ threshold }: { threshold: number | null }) {
  const fetcher = useFetcher<LowStockActionResult>();
  const [value, setValue] = useState(threshold === null ? "" : String(threshold));
  const result = fetcher.data;
  return (
    <fetcher.Form method="post">
      <InlineStack gap="200" blockAlign="end">
        <TextField
          label="Low-stock threshold (units)"
          name="threshold"
          type="number"
          min={0}
          value={value}
          onChange={setValue}
          autoComplete="off"
          helpText="Saved item low in stock fires when a saved variant's inventory falls to or below this. Empty: never."
          error={result && !result.ok ? result.message : undefined}
        />
        <Button submit loading={fetcher.state !== "idle"}>
          Save
        </Button>
      </InlineStack>
    </fetcher.Form>
  );
}

function FlowSection({
  flowTriggers,
  flowUrl,
  lowStockThreshold,
}: {
  flowTriggers: FlowTriggers;
  flowUrl: string;
  lowStockThreshold: number | null;
}) {
  return (
    <TitledCard title="Shopify Flow triggers">
      <Text as="p">
        Start a workflow in Shopify Flow with one of these triggers (search "Saved Items"), then add the actions you
        already use, such as Shopify Email or a customer tag. The app fires a trigger only while a workflow uses it.
      </Text>
      {flowTriggers.triggers.map((trigger) => (
        <InlineStack key={trigger.handle} align="space-between" blockAlign="center">
          <BlockStack gap="100">
            <Text as="h3" variant="headingSm">
              {trigger.name}
            </Text>
            <Text as="p" tone="subdued">
              {[
                trigger.inUse ? "Fired for your workflows" : "No workflow uses it",
                trigger.reportedAt ? `Flow reported it ${utcMinute(trigger.reportedAt)}` : "Flow has not reported it",
                trigger.lastFiredAt ? `last fired ${utcMinute(trigger.lastFiredAt)}` : "never fired",
              ].join(" · ")}
            </Text>
          </BlockStack>
        </InlineStack>
      ))}
      {flowTriggers.unmapped.map((report) => (
        <Banner key={report.identifier} tone={report.enabled ? "warning" : "info"}>
          {`Flow reported a trigger the app does not recognise, "${report.identifier}", ${
            report.enabled ? "as used by a workflow" : "as no longer used"
          } (${utcMinute(report.reportedAt)}).${report.enabled ? " Until Flow reports it unused, every trigger above fires." : ""}`}
        </Banner>
      ))}
      <LowStockThreshold threshold={lowStockThreshold} />
      <Box>
        <Button url={flowUrl} target="_top">
          Open Shopify Flow
        </Button>
      </Box>
    </TitledCard>
  );
}

type Storage = ReturnType<typeof useLoaderData<typeof loader>>["storage"];

const STORAGE_TONES = { ok: undefined, warning: "caution", full: "critical" } as const;

const count = (value: number) => value.toLocaleString("en-US");

/** Each of the app's stored records against the platform's cap, with what to do as one nears it. */
function StorageSection({ storage }: { storage: Storage }) {
  if (!storage) {
    return (
      <TitledCard title="Storage">
        <Text as="p" tone="subdued">
          The platform did not say how much of its storage the app uses; reload the page to try again.
        </Text>
      </TitledCard>
    );
  }
  const cap = count(storage[0]!.cap);
  return (
    <TitledCard title="Storage">
      <Text as="p">
        The platform stores at most {cap} entries of each kind for Saved Items in your shop. Removed items stay stored,
        and count, until they are deleted.
      </Text>
      {storage.map((record) =>
        record.level === "full" ? (
          <Banner key={record.name} tone="critical" title={`${record.name}: storage full`}>
            {`Your shop holds the ${cap} ${record.name.toLowerCase()} the platform allows, so shoppers' saves that need a new one are refused with a message that the store's storage is full. Everything already saved stays, and shoppers can still see and remove it. Contact Saved Items support to free room.`}
          </Banner>
        ) : record.level === "warning" ? (
          <Banner key={record.name} tone="warning" title={`${record.name}: ${record.percentUsed}% of storage used`}>
            {`At ${cap}, shoppers' saves that need a new entry will be refused. Contact Saved Items support to free room before then.`}
          </Banner>
        ) : null,
      )}
      <BlockStack gap="100">
        {storage.map((record) => (
          <InlineStack key={record.name} align="space-between">
            <Text as="span">{record.name}</Text>
            <Text as="span" tone={STORAGE_TONES[record.level]}>
              {`${count(record.used)} of ${cap} (${record.percentUsed}%)`}
            </Text>
          </InlineStack>
        ))}
      </BlockStack>
    </TitledCard>
  );
}

type SavedByStatus = ReturnType<typeof useLoaderData<typeof loader>>["savedBy"];

/**
 * "Saved by N shoppers" writes a product metafield, which needs write_products: an optional scope
 * the merchant grants here, through App Bridge's permission modal (`shopify.scopes.request`). The
 * post after it reads the grant back at once. Without App Bridge (the sandbox) the button only
 * reads the grant, which the emulator's own grant page or endpoint stands in for.
 */
function SavedBySection({ savedBy }: { savedBy: SavedByStatus }) {
  const fetcher = useFetcher<SavedByStatus>();
  const [declined, setDeclined] = useState(false);
  const granted = fetcher.data?.granted ?? savedBy.granted;
  const turnOn = async () => {
    if (typeof shopify !== "undefined") {
      const { result } = await shopify.scopes.request([savedBy.scope]);
      setDeclined(result !== "granted-all");
      if (result !== "granted-all") return;
    }
    fetcher.submit(null, { method: "post", action: "/app/saved-by-scope" });
  };
  return (
    <TitledCard title='"Saved by N shoppers"'>
      <Text as="p">
        The theme's Saved by block shows on a product page how many shoppers saved the product, once at least 5 have.
        The app keeps that count in a product metafield, which needs permission to edit products; it changes nothing
        else on them.
      </Text>
      {granted ? (
        <Banner tone="success">On: counts reach product pages within minutes of a save.</Banner>
      ) : (
        <>
          {declined && <Banner tone="warning">Permission not granted: the count stays off.</Banner>}
          <Box>
            <Button variant="primary" onClick={turnOn} loading={fetcher.state !== "idle"}>
              Turn on the count
            </Button>
          </Box>
        </>
      )}
    </TitledCard>
  );
}

export default function Setup() {
  const {
    themeEditorUrl,
    storefrontProxyUrl,
    headless,
    customerAccount,
    flowTriggers,
    flowUrl,
    lowStockThreshold,
    storage,
    savedBy,
  } = useLoaderData<typeof loader>();
  // Near or at the cap it comes first: the merchant must act before shoppers' saves fail.
  const storageSection = (
    <Layout.Section>
      <StorageSection storage={storage} />
    </Layout.Section>
  );
  const storageAlert = storage?.some((record) => record.level !== "ok") ?? false;
  return (
    <Page title="Setup" backAction={{ content: "Home", url: "/app" }}>
      <Layout>
        {storageAlert && storageSection}
        <Layout.Section>
          <TitledCard title="Online Store: add the Save button">
            <Text as="p">
              The theme editor opens on your product template with the Save button block added to the main section.
              Position it, then save the theme. Logged-in customers can then save products; the block talks to the app
              through {storefrontProxyUrl}.
            </Text>
            <Box>
              <Button url={themeEditorUrl} target="_top" variant="primary">
                Add the Save button in the theme editor
              </Button>
            </Box>
          </TitledCard>
        </Layout.Section>
        <Layout.Section>
          <SavedBySection savedBy={savedBy} />
        </Layout.Section>
        <Layout.Section>
          <ChannelSection
            title="Customer accounts"
            intro="A customer-account UI extension exchanges its session token for a 300-second service token, then calls the operations with it."
            guide={customerAccount}
          />
        </Layout.Section>
        <Layout.Section>
          <ChannelSection
            title="Headless storefronts"
            intro="Your storefront's server exchanges the customer's access token for a 300-second service token, then calls the operations with it. Never run the exchange in a browser."
            guide={headless}
          />
        </Layout.Section>
        <Layout.Section>
          <FlowSection flowTriggers={flowTriggers} flowUrl={flowUrl} lowStockThreshold={lowStockThreshold} />
        </Layout.Section>
        {!storageAlert && storageSection}
      </Layout>
    </Page>
  );
}
