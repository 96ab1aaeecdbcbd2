// Flow's side of flowTriggerReceive: the app's declared trigger extensions (extensions/*/
// shopify.extension.toml of type flow_trigger), a payload check against their fields, and a
// record of what was fired, per shop, for the tests to read.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { parse } from "smol-toml";
import { hasScope } from "./access-scopes";

export interface FlowTriggerField {
  /** The payload key: `<object>_id` for a reference, else the field's key. */
  payloadKey: string;
  type: string;
}

export interface FiredFlowTrigger {
  handle: string;
  payload: Record<string, unknown>;
}

export interface FlowTriggerRecorder {
  receive(
    shop: string,
    args: { handle?: string | null; payload?: unknown; body?: string | null },
    /** The scopes the shop granted the app. */
    granted: ReadonlySet<string>,
  ): {
    userErrors: { field: string[] | null; message: string }[];
  };
  fired(shop: string): FiredFlowTrigger[];
  reset(): void;
}

/**
 * A trigger field of a reference type needs the read scope of what it references (shopify.dev,
 * "Flow triggers: reference": customer → read_customers, order → read_orders, product → read_products).
 */
const REFERENCE_SCOPES: Record<string, string> = {
  customer_reference: "read_customers",
  order_reference: "read_orders",
  product_reference: "read_products",
};
const REFERENCE_TYPES = new Set(Object.keys(REFERENCE_SCOPES));

/** The trigger extensions under `extensionsDir`, by handle. */
export function loadFlowTriggers(extensionsDir: string): Map<string, FlowTriggerField[]> {
  const triggers = new Map<string, FlowTriggerField[]>();
  for (const dir of readdirSync(extensionsDir)) {
    const file = path.join(extensionsDir, dir, "shopify.extension.toml");
    if (!statSync(file, { throwIfNoEntry: false })?.isFile()) continue;
    const toml = parse(readFileSync(file, "utf8")) as {
      extensions?: { type?: string; handle?: string }[];
      settings?: { fields?: { type: string; key?: string }[] };
    };
    const entry = toml.extensions?.[0];
    if (entry?.type !== "flow_trigger" || !entry.handle) continue;
    triggers.set(
      entry.handle,
      (toml.settings?.fields ?? []).map((field) => ({
        payloadKey: REFERENCE_TYPES.has(field.type) ? `${field.type.replace(/_reference$/, "")}_id` : field.key!,
        type: field.type,
      })),
    );
  }
  return triggers;
}

function valueProblem(field: FlowTriggerField, value: unknown): string | undefined {
  if (REFERENCE_TYPES.has(field.type))
    return Number.isSafeInteger(value) && (value as number) > 0 ? undefined : "must be a numeric id";
  if (field.type === "number_decimal")
    return typeof value === "number" && Number.isFinite(value) ? undefined : "must be a number";
  if (field.type === "boolean") return typeof value === "boolean" ? undefined : "must be a boolean";
  return typeof value === "string" ? undefined : "must be a string";
}

export function createFlowTriggerRecorder(triggers: Map<string, FlowTriggerField[]>): FlowTriggerRecorder {
  const fired = new Map<string, FiredFlowTrigger[]>();
  return {
    receive(shop, { handle, payload, body }, granted) {
      const error = (field: string[] | null, message: string) => ({ userErrors: [{ field, message }] });
      if (body != null) return error(["body"], "body is not supported by the emulator; send handle and payload");
      const fields = handle ? triggers.get(handle) : undefined;
      if (!handle || !fields) return error(["handle"], `No trigger with handle ${handle ?? "(none)"}`);
      for (const { type } of fields) {
        const scope = REFERENCE_SCOPES[type];
        if (scope && !hasScope(granted, scope))
          return error(["handle"], `${handle} has a ${type} field, which requires the ${scope} access scope`);
      }
      if (typeof payload !== "object" || payload === null || Array.isArray(payload))
        return error(["payload"], "payload must be a JSON object");
      const values = payload as Record<string, unknown>;
      const declared = new Set(fields.map((field) => field.payloadKey));
      const unknown = Object.keys(values).filter((key) => !declared.has(key));
      if (unknown.length > 0) return error(["payload"], `Fields not declared by ${handle}: ${unknown.join(", ")}`);
      for (const field of fields) {
        if (!(field.payloadKey in values))
          return error(["payload", field.payloadKey], `${field.payloadKey} is missing`);
        const problem = valueProblem(field, values[field.payloadKey]);
        if (problem) return error(["payload", field.payloadKey], `${field.payloadKey} ${problem}`);
      }
      fired.set(shop, [...(fired.get(shop) ?? []), { handle, payload: structuredClone(values) }]);
      return { userErrors: [] };
    },
    fired: (shop) => fired.get(shop) ?? [],
    reset: () => fired.clear(),
  };
}
