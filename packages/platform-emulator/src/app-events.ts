import { randomBytes } from "node:crypto";
import { plainRoute, type Route } from "./exchange";
import { jsonReply, NOT_FOUND, textReply, type Reply } from "./reply";
import { shopByNumericId, type EmulatorState, type ShopState, type Subscription } from "./state";
import type { AppEventRecord, AppPricing, BillingCharges, BillingErrorCode } from "./types";

/**
 * The App Events API and Shopify App Pricing's usage charges: an app's client-credentials token,
 * its events, and the billing events among them, charged against the meters of the app's pricing
 * configuration (which the platform keeps in the Partner Dashboard, so the emulator is told it by
 * options or setAppPricing). Pages: "App Events API reference", "Create an event", "Setup usage
 * charges" (Shopify App Pricing), "About App Events".
 */

const TOKEN_URL = /^https:\/\/api\.shopify\.com\/auth\/access_token$/;
// "Create an event": POST https://api.shopify.com/app/<version>/events; the reference is published
// for these versions.
export const APP_EVENTS_VERSIONS = ["unstable", "2027-01"] as const;
const EVENTS_URL = /^https:\/\/api\.shopify\.com\/app\/([^/]+)\/events$/;

// "App Events API reference": tokens expire after 60 minutes; the scope the token is granted.
const TOKEN_LIFETIME_MS = 60 * 60 * 1000;
const APP_EVENTS_SCOPE = "write_global_api_app_events";
// "Create an event": at most 64 characters, a 24-hour window in which a repeat answers the original response.
export const IDEMPOTENCY_KEY_MAX_LENGTH = 64;
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
// "Create an event": the timestamp can't be more than 5 minutes in the future.
export const MAX_FUTURE_MS = 5 * 60 * 1000;
// "Setup usage charges": usage charges are tied to the subscription's monthly billing cycle, which
// the Admin API reports as EVERY_30_DAYS.
export const BILLING_CYCLE_MS = 30 * 24 * 60 * 60 * 1000;
// "Create an event": the attributes object's restrictions.
const MAX_ATTRIBUTES = 15;
const ATTRIBUTE_KEY = /^[A-Za-z0-9_.-]{1,64}$/;
const MAX_ATTRIBUTE_STRING = 128;
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/** The current billing cycle of a subscription: 30-day cycles from the day it began. */
export function billingCycle(subscription: Subscription, now: Date): { start: Date; end: Date } {
  const began = subscription.createdAt.getTime();
  const elapsed = Math.max(0, Math.floor((now.getTime() - began) / BILLING_CYCLE_MS));
  const start = began + elapsed * BILLING_CYCLE_MS;
  return { start: new Date(start), end: new Date(start + BILLING_CYCLE_MS) };
}

interface ChargedEvent {
  record: AppEventRecord;
  subscriptionId: number;
  cycleStart: number;
}

interface FieldError {
  field: string | null;
  code: string;
  message: string;
}

// "Create an event", Error responses: a non-2xx status with success false, a message and
// field-level errors. The page gives the body, not the status: 400 for a request it refuses, 401
// for a missing or expired token.
const refusal = (status: number, error: string, errors: FieldError[]): Reply =>
  jsonReply(status, { success: false, error, errors });
// "App Events API reference" (2027-01): without a User-Agent header the edge answers 403 with this
// message before it reads anything else.
const NO_USER_AGENT = textReply(403, "You do not have permission to access this website", "text/html; charset=utf-8");
// "Create an event": every request received is answered 202, even when billing refuses the event;
// the outcome shows only in the Dev Dashboard's logs (appEvents here).
const ACCEPTED = jsonReply(202, { success: true });

export function createAppEvents(state: EmulatorState, initialPricing: AppPricing | undefined) {
  let pricing: AppPricing = initialPricing ?? { meters: [] };
  const tokens = new Map<string, number>();
  /** By idempotency key, per app: the answer first given and when. */
  const seenKeys = new Map<string, { reply: Reply; at: number }>();
  const log: AppEventRecord[] = [];
  const charged: ChargedEvent[] = [];

  async function issueToken(request: Request): Promise<Reply> {
    if (!request.headers.get("User-Agent")) return NO_USER_AGENT;
    let body: Record<string, unknown>;
    try {
      body = (await request.json()) as Record<string, unknown>;
    } catch {
      return jsonReply(400, { error: "invalid_request", error_description: "The request body is not JSON" });
    }
    if (body.grant_type !== "client_credentials") {
      return jsonReply(400, {
        error: "unsupported_grant_type",
        error_description: "Only client_credentials is accepted",
      });
    }
    // The app's client ID and secret from the Dev Dashboard: the same the OAuth token endpoint checks.
    if (
      state.clientId === undefined ||
      body.client_id !== state.clientId ||
      body.client_secret !== state.clientSecret
    ) {
      return jsonReply(401, { error: "invalid_client", error_description: "Client authentication failed" });
    }
    const token = randomBytes(16).toString("hex");
    tokens.set(token, state.now().getTime() + TOKEN_LIFETIME_MS);
    return jsonReply(200, {
      access_token: token,
      scope: APP_EVENTS_SCOPE,
      expires_in: Math.round(TOKEN_LIFETIME_MS / 1000) - 1,
    });
  }

  function validate(body: unknown): { event: ParsedEvent } | { errors: FieldError[] } {
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      // "Create an event": one event per request; batches are not supported.
      return { errors: [{ field: null, code: "invalid_type", message: "must be one event object" }] };
    }
    const fields = body as Record<string, unknown>;
    const errors: FieldError[] = [];
    for (const field of ["shop_id", "event_handle", "timestamp", "idempotency_key"] as const) {
      if (fields[field] === undefined || fields[field] === null || fields[field] === "") {
        errors.push({ field, code: "missing", message: "is missing" });
      } else if (typeof fields[field] !== "string") {
        errors.push({ field, code: "invalid_type", message: "must be a string" });
      }
    }
    const attributes = fields.attributes;
    if (attributes === undefined || attributes === null) {
      errors.push({ field: "attributes", code: "missing", message: "is missing" });
    } else if (typeof attributes !== "object" || Array.isArray(attributes)) {
      errors.push({ field: "attributes", code: "invalid_type", message: "must be an object" });
    } else {
      errors.push(...attributeErrors(attributes as Record<string, unknown>));
    }
    if (errors.length > 0) return { errors };
    const key = fields.idempotency_key as string;
    if (key.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
      errors.push({
        field: "idempotency_key",
        code: "invalid",
        message: `is too long (maximum is ${IDEMPOTENCY_KEY_MAX_LENGTH} characters)`,
      });
    }
    const timestamp = fields.timestamp as string;
    if (!ISO_8601.test(timestamp) || Number.isNaN(Date.parse(timestamp))) {
      errors.push({ field: "timestamp", code: "invalid", message: "must be an ISO 8601 timestamp" });
    }
    const shop = shopNamed(fields.shop_id as string);
    if (!shop)
      errors.push({ field: "shop_id", code: "not_installed", message: "the app is not installed on this shop" });
    if (errors.length > 0 || !shop) return { errors };
    return {
      event: {
        shop,
        eventHandle: fields.event_handle as string,
        timestamp,
        idempotencyKey: key,
        attributes: attributes as Record<string, string | number | boolean>,
      },
    };
  }

  // "Create an event": a Shop GID or the numeric id as a string; the app must be installed there.
  function shopNamed(shopId: string): ShopState | undefined {
    const numeric = /^(?:gid:\/\/shopify\/Shop\/)?(\d+)$/.exec(shopId)?.[1];
    const shop = shopByNumericId(state, numeric);
    return shop && shop.adminTokens.current ? shop : undefined;
  }

  /** What billing makes of an event whose handle names a meter ("Setup usage charges", Billing error states). */
  function bill(event: ParsedEvent, meter: AppPricing["meters"][number]): Omit<AppEventRecord, keyof ParsedEventView> {
    const now = state.now();
    const failure = (code: BillingErrorCode, details: string) => ({
      kind: "billing" as const,
      resultStatus: "RESULT_STATUS_FAILURE" as const,
      resultCode: code,
      resultDetails: details,
      chargedCents: 0,
    });
    const at = Date.parse(event.timestamp);
    if (at > now.getTime() + MAX_FUTURE_MS) {
      return failure("INVALID_TIMESTAMP", "The timestamp can't be more than 5 minutes in the future");
    }
    const subscription = event.shop.subscription;
    if (!subscription)
      return failure("NO_SUBSCRIPTION", "The merchant doesn't have an active subscription to your app");
    const unitPriceCents = meter.unitPriceCents[subscription.plan];
    if (unitPriceCents === undefined) {
      return failure("SUBSCRIPTION_NOT_METERED", `The ${subscription.plan} plan has no meter ${meter.handle}`);
    }
    const value = event.attributes.value;
    if (value === undefined) return failure("MISSING_VALUE_KEY", "The value key is missing from the attributes");
    if (typeof value !== "number" || !(value > 0)) return failure("INVALID_VALUE", "The value must be greater than 0");
    const cycle = billingCycle(subscription, now);
    if (at < cycle.start.getTime() || at >= cycle.end.getTime()) {
      return failure(
        "PERIOD_CLOSED",
        `The timestamp must fall within the current billing cycle, ${cycle.start.toISOString()} to ${cycle.end.toISOString()}`,
      );
    }
    return {
      kind: "billing",
      resultStatus: "RESULT_STATUS_SUCCESS",
      chargedCents: Math.round(value * unitPriceCents),
    };
  }

  async function createEvent(request: Request, version: string | undefined): Promise<Reply> {
    if (!APP_EVENTS_VERSIONS.includes(version as (typeof APP_EVENTS_VERSIONS)[number])) return NOT_FOUND;
    if (!request.headers.get("User-Agent")) return NO_USER_AGENT;
    const token = /^Bearer (.+)$/.exec(request.headers.get("Authorization") ?? "")?.[1];
    const expiresAt = token === undefined ? undefined : tokens.get(token);
    if (expiresAt === undefined || expiresAt <= state.now().getTime()) {
      return refusal(401, "Unauthorized", [
        { field: null, code: "unauthorized", message: "A valid bearer token is required" },
      ]);
    }
    let body: unknown;
    try {
      body = await request.json();
    } catch {
      return refusal(400, "Invalid request", [{ field: null, code: "invalid", message: "the body is not JSON" }]);
    }
    const validated = validate(body);
    if ("errors" in validated) return refusal(400, "Invalid request", validated.errors);
    const { event } = validated;

    const now = state.now().getTime();
    const seen = seenKeys.get(event.idempotencyKey);
    // The 24-hour window is the only promise this emulator keeps. The reference adds that billing
    // events are idempotent permanently, "Setup usage charges" says only 24 hours: a repeat after
    // the window is a new event here, so an app cannot lean on the longer reading (decision 0018).
    if (seen && now - seen.at < IDEMPOTENCY_WINDOW_MS) return seen.reply;

    const meter = pricing.meters.find((candidate) => candidate.handle === event.eventHandle);
    // An event whose handle matches no meter is a custom event: logged, never billed ("Create an event").
    const outcome = meter
      ? bill(event, meter)
      : {
          kind: "custom" as const,
          resultStatus:
            Date.parse(event.timestamp) > now + MAX_FUTURE_MS
              ? ("RESULT_STATUS_FAILURE" as const)
              : ("RESULT_STATUS_SUCCESS" as const),
          chargedCents: 0,
        };
    const record: AppEventRecord = {
      shop: event.shop.domain,
      eventHandle: event.eventHandle,
      timestamp: event.timestamp,
      idempotencyKey: event.idempotencyKey,
      attributes: event.attributes,
      receivedAt: new Date(now).toISOString(),
      ...outcome,
    };
    log.push(record);
    const subscription = event.shop.subscription;
    if (record.chargedCents > 0 && subscription) {
      charged.push({
        record,
        subscriptionId: subscription.id,
        cycleStart: billingCycle(subscription, new Date(now)).start.getTime(),
      });
    }
    seenKeys.set(event.idempotencyKey, { reply: ACCEPTED, at: now });
    return ACCEPTED;
  }

  const routes: Route[] = [
    plainRoute(state, {
      api: "app-events-auth",
      method: "POST",
      url: TOKEN_URL,
      shopOf: () => "",
      handle: (request) => issueToken(request),
    }),
    plainRoute(state, {
      api: "app-events",
      method: "POST",
      url: EVENTS_URL,
      shopOf: () => "",
      handle: (request, [version]) => createEvent(request, version),
    }),
  ];

  return {
    routes,
    pricing: () => pricing,
    reset() {
      tokens.clear();
      seenKeys.clear();
      log.length = 0;
      charged.length = 0;
    },
    controls: {
      setAppPricing(next: AppPricing) {
        pricing = next;
      },
      appEvents: (domain?: string) => log.filter((record) => domain === undefined || record.shop === domain),
      billingCharges(domain: string): BillingCharges {
        const shop = state.shops.get(domain);
        const subscription = shop?.subscription;
        if (!subscription) return { cycleStart: null, cycleEnd: null, chargedCents: 0, events: [] };
        const cycle = billingCycle(subscription, state.now());
        const events = charged
          .filter(
            (charge) =>
              charge.record.shop === domain &&
              charge.subscriptionId === subscription.id &&
              charge.cycleStart === cycle.start.getTime(),
          )
          .map((charge) => charge.record);
        return {
          cycleStart: cycle.start.toISOString(),
          cycleEnd: cycle.end.toISOString(),
          chargedCents: events.reduce((sum, record) => sum + record.chargedCents, 0),
          events,
        };
      },
    },
  };
}

interface ParsedEvent {
  shop: ShopState;
  eventHandle: string;
  timestamp: string;
  idempotencyKey: string;
  attributes: Record<string, string | number | boolean>;
}

type ParsedEventView = Pick<
  AppEventRecord,
  "shop" | "eventHandle" | "timestamp" | "idempotencyKey" | "attributes" | "receivedAt"
>;

function attributeErrors(attributes: Record<string, unknown>): FieldError[] {
  const errors: FieldError[] = [];
  const entries = Object.entries(attributes);
  if (entries.length > MAX_ATTRIBUTES) {
    errors.push({ field: "attributes", code: "invalid", message: `has more than ${MAX_ATTRIBUTES} keys` });
  }
  for (const [key, value] of entries) {
    const field = `attributes.${key}`;
    if (!ATTRIBUTE_KEY.test(key)) errors.push({ field, code: "invalid", message: "is not a valid attribute key" });
    if (!["string", "number", "boolean"].includes(typeof value)) {
      errors.push({ field, code: "invalid_type", message: "must be a string, number or boolean" });
    } else if (typeof value === "string" && Buffer.byteLength(value, "utf8") > MAX_ATTRIBUTE_STRING) {
      errors.push({ field, code: "invalid", message: `is longer than ${MAX_ATTRIBUTE_STRING} characters` });
    }
  }
  return errors;
}
