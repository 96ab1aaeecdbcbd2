import { getEnv } from "~/config/env.server";
import { ServiceError } from "~/lib/errors";
import { runAdminGraphql, type AdminGraphqlClient } from "~/platform/admin-graphql.server";
import { registerProcessCache } from "~/lib/process-caches.server";
import { flowTriggerReports, storeFlowTriggerFired, storeFlowTriggerUse } from "~/services/installs/shop-state.server";

/** The handles of extensions/flow-*; each payload below carries exactly the fields its TOML declares. */
export const FLOW_TRIGGER_HANDLES = {
  itemSaved: "item-saved",
  priceDropped: "saved-item-price-dropped",
  backInStock: "saved-item-back-in-stock",
} as const;

export type FlowTriggerHandle = (typeof FLOW_TRIGGER_HANDLES)[keyof typeof FLOW_TRIGGER_HANDLES];

const KNOWN_HANDLES: ReadonlySet<string> = new Set(Object.values(FLOW_TRIGGER_HANDLES));

/**
 * Keeps what Flow's lifecycle callback reports for one of our triggers; a report about a trigger
 * this app does not declare (a removed one) is acknowledged and dropped.
 */
export async function recordFlowTriggerUse(report: {
  flow_trigger_definition_id: string;
  has_enabled_flow: boolean;
  shopify_domain: string;
  timestamp: string;
}): Promise<void> {
  if (!KNOWN_HANDLES.has(report.flow_trigger_definition_id)) return;
  await storeFlowTriggerUse(
    report.shopify_domain,
    report.flow_trigger_definition_id,
    report.has_enabled_flow,
    new Date(report.timestamp),
  );
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
      const data = await runAdminGraphql<{ flowTriggerReceive: { userErrors: { message: string }[] } | null }>(
        admin,
        FLOW_TRIGGER_RECEIVE,
        { handle, payload },
      );
      const errors = data.flowTriggerReceive?.userErrors ?? [];
      if (errors.length > 0) {
        throw new ServiceError("PLATFORM_UPSTREAM_ERROR", `Flow refused trigger ${handle}`, {
          cause: new Error(errors.map((error) => error.message).join("; ")),
        });
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
    console.error(`[reach] could not record the last firing of ${handle} for ${shop}`, error),
  );
}

const TRIGGER_NAMES: Record<FlowTriggerHandle, string> = {
  [FLOW_TRIGGER_HANDLES.itemSaved]: "Item saved",
  [FLOW_TRIGGER_HANDLES.priceDropped]: "Saved item price dropped",
  [FLOW_TRIGGER_HANDLES.backInStock]: "Saved item back in stock",
};

export interface FlowTriggerStatus {
  handle: FlowTriggerHandle;
  /** As in extensions/flow-<handle>/shopify.extension.toml, the name merchants pick in Flow. */
  name: string;
  /** Whether Flow last reported an enabled workflow starting with it. */
  inUse: boolean;
  /** ISO time of the last firing (to the minute), or null when never. */
  lastFiredAt: string | null;
}

/** The setup page's list: every trigger the app declares, in the order of the docs. */
export async function flowTriggerStatuses(shop: string): Promise<FlowTriggerStatus[]> {
  const reports = new Map((await flowTriggerReports(shop)).map((report) => [report.handle, report]));
  return Object.values(FLOW_TRIGGER_HANDLES).map((handle) => {
    const report = reports.get(handle);
    return {
      handle,
      name: TRIGGER_NAMES[handle],
      inUse: report?.enabled ?? false,
      lastFiredAt: report?.lastFiredAt?.toISOString() ?? null,
    };
  });
}
