// Product metafields, as far as the app writes them: metafieldsSet and metafieldsDelete over the
// definitions the app declares in shopify.app.toml (`[product.metafields.app.<key>]`), and what a
// storefront's Liquid reads back (product.metafields). Owners are products named by GID, which
// must be in the shop's catalogue (products.ts).
import type { MetafieldDefinition } from "./app-config";
import { checkFieldValue } from "./field-types";
import { catalogueHasProduct } from "./products";
import type { EmulatorState, ShopState } from "./state";
import type { EmulatedMetafield } from "./types";

/** metafieldsSet and metafieldsDelete take at most this many metafields per call. */
export const MAX_METAFIELDS_PER_CALL = 25;

const PRODUCT_GID = /^gid:\/\/shopify\/Product\/\d+$/;

const stores = new WeakMap<ShopState, Map<string, EmulatedMetafield>>();

function storeOf(shop: ShopState): Map<string, EmulatedMetafield> {
  let store = stores.get(shop);
  if (!store) stores.set(shop, (store = new Map()));
  return store;
}

const keyOf = (ownerId: string, namespace: string, key: string) => `${ownerId}|${namespace}|${key}`;

interface UserError {
  field: string[];
  message: string;
  code: string | null;
  elementIndex?: number | null;
}

export interface MetafieldInput {
  ownerId: string;
  namespace?: string | null;
  key: string;
  type?: string | null;
  value?: string;
  compareDigest?: string | null;
}

/** `$app` and `$app:<suffix>` as the platform stores them (`app--<id>[--<suffix>]`); `$app` is the default. */
export function storedNamespace(namespace: string | null | undefined, apiClientId: string): string {
  const given = namespace ?? "$app";
  if (given === "$app") return `app--${apiClientId}`;
  if (given.startsWith("$app:")) return `app--${apiClientId}--${given.slice("$app:".length)}`;
  return given;
}

function checkValue(type: string, value: string): string | undefined {
  if (type === "number_integer" && !/^-?\d{1,18}$/.test(value)) return `Value must be an integer, got "${value}"`;
  // The type's value rules and the platform's size limits (limits.ts). The platform does not
  // document which MetafieldsSetUserErrorCode a too-big value gets; INVALID_VALUE ("invalid for
  // the metafield type") is the reading taken, as for metaobject fields.
  return checkFieldValue(type, value);
}

export interface MetafieldsConfig {
  definitions: readonly MetafieldDefinition[];
  apiClientId: string;
  nextId(): number;
}

export function createMetafieldsApi(shop: ShopState, { definitions, apiClientId, nextId }: MetafieldsConfig) {
  const store = storeOf(shop);
  const definitionOf = (namespace: string, key: string) =>
    definitions.find((definition) => definition.namespace === namespace && definition.key === key);
  const tooMany = (field: string): UserError => ({
    field: [field],
    message: `At most ${MAX_METAFIELDS_PER_CALL} metafields per call`,
    code: "LESS_THAN_OR_EQUAL_TO",
    elementIndex: null,
  });

  return {
    metafieldsSet({ metafields }: { metafields: MetafieldInput[] }) {
      if (metafields.length > MAX_METAFIELDS_PER_CALL) return { metafields: null, userErrors: [tooMany("metafields")] };
      const errors: UserError[] = [];
      const writes = metafields.map((input, index) => {
        const namespace = storedNamespace(input.namespace, apiClientId);
        const definition = definitionOf(namespace, input.key);
        const type = input.type ?? definition?.type;
        const fail = (message: string, code: string, field: string) =>
          errors.push({ field: ["metafields", String(index), field], message, code, elementIndex: index });
        if (!PRODUCT_GID.test(input.ownerId)) fail(`Owner ${input.ownerId} is not a product`, "INVALID", "ownerId");
        // A deleted or made-up owner fails its entry, and with it the whole call (below). The Admin
        // API's MetafieldsSetUserErrorCode has no owner-specific code: INVALID, on the entry's ownerId.
        else if (!catalogueHasProduct(shop, input.ownerId)) fail("Owner does not exist", "INVALID", "ownerId");
        else if (!type) fail("Type is required without a definition", "BLANK", "type");
        else if (definition && definition.type !== type)
          fail(`Type must be ${definition.type}, as its definition says`, "INVALID_TYPE", "type");
        else {
          const problem = checkValue(type, input.value ?? "");
          if (problem) fail(problem, "INVALID_VALUE", "value");
        }
        const existing = store.get(keyOf(input.ownerId, namespace, input.key));
        const id = existing?.id ?? `gid://shopify/Metafield/${nextId()}`;
        return { id, ownerId: input.ownerId, namespace, key: input.key, type: type ?? "", value: input.value ?? "" };
      });
      // The platform writes all or none of a call's metafields.
      if (errors.length > 0) return { metafields: null, userErrors: errors };
      for (const write of writes) store.set(keyOf(write.ownerId, write.namespace, write.key), write);
      return { metafields: writes, userErrors: [] };
    },
    metafieldsDelete({ metafields }: { metafields: { ownerId: string; namespace: string; key: string }[] }) {
      if (metafields.length > MAX_METAFIELDS_PER_CALL) {
        return { deletedMetafields: null, userErrors: [tooMany("metafields")] };
      }
      // One entry per input: the identifier when something was deleted, null when nothing was there.
      const deletedMetafields = metafields.map((input) => {
        const namespace = storedNamespace(input.namespace, apiClientId);
        const existed = store.delete(keyOf(input.ownerId, namespace, input.key));
        return existed ? { ownerId: input.ownerId, namespace, key: input.key } : null;
      });
      return { deletedMetafields, userErrors: [] };
    },
  };
}

/** The shop's metafields API over the app's definitions, as the Admin API and a seed both write. */
export function shopMetafieldsApi(state: EmulatorState, shop: ShopState) {
  return createMetafieldsApi(shop, {
    definitions: state.metafieldDefinitions,
    apiClientId: state.apiClientId,
    nextId: () => state.nextId(),
  });
}

/** The shop's metafields, of one owner or all. */
export function listMetafields(shop: ShopState, ownerId?: string): EmulatedMetafield[] {
  return [...storeOf(shop).values()].filter((metafield) => ownerId === undefined || metafield.ownerId === ownerId);
}
