import { getEnv } from "~/config/env.server";
import { ServiceError } from "~/lib/errors";
import { platformRefusal, runAdminGraphql, type AdminGraphqlClient } from "~/platform/admin-graphql.server";
import { registerProcessCache } from "~/lib/process-caches.server";
import { errorFields, writeLog } from "~/lib/json-log";
import {
  flowTriggerReports,
  flowTriggersReportedInUse,
  storeFlowTriggerFired,
  storeFlowTriggerUse,
} from "~/services/installs/shop-state.server";

/** The handles of extensions/flow-*; each payload below carries exactly the fields its TOML declares. */
export const FLOW_TRIGGER_HANDLES = {
  itemSaved: "item-saved",
  priceDropped: "saved-item-price-dropped",
  backInStock: "saved-item-back-in-stock",
  lowInStock: "saved-item-low-in-stock",
} as const;

export type FlowTriggerHandle = (typeof FLOW_TRIGGER_HANDLES)[keyof typeof FLOW_TRIGGER_HANDLES];

/** As in extensions/flow-<handle>/shopify.extension.toml: the name merchants pick in Flow. */
const TRIGGER_NAMES: Record<FlowTriggerHandle, string> = {
  [FLOW_TRIGGER_HANDLES.itemSaved]: "Item saved",
  [FLOW_TRIGGER_HANDLES.priceDropped]: "Saved item price dropped",
  [FLOW_TRIGGER_HANDLES.backInStock]: "Saved item back in stock",
  [FLOW_TRIGGER_HANDLES.lowInStock]: "Saved item low in stock",
};

const KNOWN_HANDLES: ReadonlySet<string> = new Set(Object.values(FLOW_TRIGGER_HANDLES));

const comparable = (identifier: string) => identifier.trim().replace(/\s+/g, " ").toLowerCase();

/**
 * Flow documents flow_trigger_definition_id only as the trigger's "unique identifier", and its
 * example reads like a title, so the handle and the TOML name are both taken, whatever their case
 * and spacing. The definition's GID is assigned on deploy and known to no file here, so it is
 * unmappable, as is anything else.
 */
const TRIGGERS_BY_IDENTIFIER = new Map<string, FlowTriggerHandle>(
  Object.values(FLOW_TRIGGER_HANDLES).flatMap((handle) => [
    [comparable(handle), handle],
    [comparable(TRIGGER_NAMES[handle]), handle],
  ]),
);

/**
 * Keeps what Flow's lifecycle callback reports: under the trigger's handle when the identifier is one
 * of ours, else under the identifier as Flow sent it, logged. An enabled report the app cannot map
 * turns every trigger on for the shop (flowTriggerInUse): a merchant whose workflow never starts
 * loses more than the points of triggers nobody listens to.
 */
export async function recordFlowTriggerUse(report: {
  flow_trigger_definition_id: string;
  has_enabled_flow: boolean;
  shopify_domain: string;
  timestamp: string;
}): Promise<void> {
  const identifier = report.flow_trigger_definition_id;
  const handle = TRIGGERS_BY_IDENTIFIER.get(comparable(identifier));
  if (!handle) {
    writeLog("warn", "flow lifecycle report for an unmapped trigger identifier", {
      shop: report.shopify_domain,
      identifier,
      hasEnabledFlow: report.has_enabled_flow,
    });
  }
  await storeFlowTriggerUse(
    report.shopify_domain,
    handle ?? identifier,
    report.has_enabled_flow,
    new Date(report.timestamp),
  );
}

/** Whether the identifiers reported in use include one the app cannot map, which turns every trigger on. */
const firesEveryTrigger = (identifiersInUse: Iterable<string>) =>
  [...identifiersInUse].some((identifier) => !KNOWN_HANDLES.has(identifier));

/** Whether the app fires the trigger for the shop: a workflow starts with it, or with an identifier the app cannot map. */
export async function flowTriggerInUse(shop: string, handle: FlowTriggerHandle): Promise<boolean> {
  const reported = await flowTriggersReportedInUse(shop);
  return reported.has(handle) || firesEveryTrigger(reported);
}

/** FLOW_TRIGGERS: with "off", nothing is fired and product updates are not compared. */
export function flowTriggersEnabled(): boolean {
  return getEnv().FLOW_TRIGGERS === "on";
}

/** The numeric id of a GID, as Flow's customer_reference and product_reference take it. */
export function numericIdOf(gid: string): number | undefined {
  const id = /^gid:\/\/shopify\/[A-Za-z]+\/(\d{1,20})$/.exec(gid)?.[1];
  return id === undefined ? undefined : Number(id);
}

const FLOW_TRIGGER_RECEIVE = `#graphql
  mutation SavedItemsFlowTrigger($handle: String, $payload: JSON) {
    flowTriggerReceive(handle: $handle, payload: $payload) { userErrors { field message } }
  }`;

/** Attempts after the Admin client's own bounded throttling retries, for fan-outs that may wait. */
const THROTTLED_ATTEMPTS = 3;
const THROTTLED_PAUSE_MS = 1_000;

/**
 * Starts the shop's workflows that begin with the trigger. Throttling is retried (the client's
 * retries, then a few more pauses: this runs after answering, so it may wait); a refused payload
 * is PLATFORM_UPSTREAM_ERROR, for the caller to log.
 */
export async function fireFlowTrigger(
  shop: string,
  admin: AdminGraphqlClient,
  handle: FlowTriggerHandle,
  payload: Record<string, unknown>,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      const data = await runAdminGraphql(admin, FLOW_TRIGGER_RECEIVE, { handle, payload });
      const errors = data.flowTriggerReceive?.userErrors ?? [];
      if (errors.length > 0) {
        throw platformRefusal(`Flow refused trigger ${handle}`, errors);
      }
      await noteFired(shop, handle);
      return;
    } catch (error) {
      if (!(error instanceof ServiceError && error.code === "RATE_LIMITED") || attempt >= THROTTLED_ATTEMPTS)
        throw error;
      await new Promise((resolve) => setTimeout(resolve, THROTTLED_PAUSE_MS * attempt));
    }
  }
}

/** "Last fired" is shown to the minute; a fan-out of thousands must not write a row per trigger. */
const LAST_FIRED_WRITE_INTERVAL_MS = 60_000;
const MAX_LAST_FIRED_KEYS = 30_000;
/** shop|handle → when this process last wrote lastFiredAt. */
const lastFiredWrites = new Map<string, number>();
registerProcessCache(() => lastFiredWrites.clear());

/** Stamps lastFiredAt at most once a minute per shop and trigger; a failed stamp never fails the firing. */
async function noteFired(shop: string, handle: FlowTriggerHandle): Promise<void> {
  const key = `${shop}|${handle}`;
  const now = Date.now();
  const written = lastFiredWrites.get(key);
  if (written !== undefined && now - written < LAST_FIRED_WRITE_INTERVAL_MS) return;
  lastFiredWrites.delete(key);
  if (lastFiredWrites.size >= MAX_LAST_FIRED_KEYS) lastFiredWrites.delete(lastFiredWrites.keys().next().value!);
  lastFiredWrites.set(key, now);
  await storeFlowTriggerFired(shop, handle, new Date(now)).catch((error: unknown) =>
    writeLog("error", `[reach] could not record the last firing of ${handle} for ${shop}`, {
      error: errorFields(error),
    }),
  );
}

export interface FlowTriggerStatus {
  handle: FlowTriggerHandle;
  /** As in extensions/flow-<handle>/shopify.extension.toml, the name merchants pick in Flow. */
  name: string;
  /** Whether the app fires it: Flow reported an enabled workflow starting with it, or with an unmapped identifier. */
  inUse: boolean;
  /** ISO time of Flow's newest report about it, or null when Flow never reported it. */
  reportedAt: string | null;
  /** ISO time of the last firing (to the minute), or null when never. */
  lastFiredAt: string | null;
}

/** A report whose identifier the app could not map to one of its triggers. */
export interface UnmappedFlowTriggerReport {
  /** As Flow sent it. */
  identifier: string;
  enabled: boolean;
  reportedAt: string;
}

/** The setup page's list: every trigger the app declares, in the order of the docs, and the reports it could not map. */
export async function flowTriggerStatuses(
  shop: string,
): Promise<{ triggers: FlowTriggerStatus[]; unmapped: UnmappedFlowTriggerReport[] }> {
  const reports = await flowTriggerReports(shop);
  const byHandle = new Map(reports.map((report) => [report.handle, report]));
  const unmapped = reports
    .filter((report) => !KNOWN_HANDLES.has(report.handle))
    .map((report) => ({
      identifier: report.handle,
      enabled: report.enabled,
      reportedAt: report.reportedAt.toISOString(),
    }));
  const allInUse = firesEveryTrigger(reports.filter((report) => report.enabled).map((report) => report.handle));
  const triggers = Object.values(FLOW_TRIGGER_HANDLES).map((handle) => {
    const report = byHandle.get(handle);
    return {
      handle,
      name: TRIGGER_NAMES[handle],
      inUse: allInUse || (report?.enabled ?? false),
      reportedAt: report?.reportedAt.toISOString() ?? null,
      lastFiredAt: report?.lastFiredAt?.toISOString() ?? null,
    };
  });
  return { triggers, unmapped };
}
