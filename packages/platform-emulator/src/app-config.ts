import { readFileSync } from "node:fs";
import { parse } from "smol-toml";

export interface FieldDefinition {
  key: string;
  name: string;
  type: string;
  required: boolean;
  adminFilterable: boolean;
}

export interface MetaobjectDefinition {
  /** Position in the TOML, used for a stable definition GID. */
  index: number;
  /** The stored form, `app--<apiClientId>--<name>`. */
  type: string;
  name: string;
  displayNameKey: string | undefined;
  fields: FieldDefinition[];
}

export interface MetaobjectDefinitions {
  /** Accepts both `$app:<name>` and the stored `app--<apiClientId>--<name>`. */
  resolve(type: string): MetaobjectDefinition | undefined;
}

type Table = Record<string, unknown>;

function isTable(value: unknown): value is Table {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function optionalString(table: Table, key: string, where: string): string | undefined {
  const value = table[key];
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw new Error(`${where}.${key} must be a string`);
  return value;
}

function stringList(table: Table, key: string, where: string): string[] {
  const value = table[key];
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) {
    throw new Error(`${where}.${key} must be a list of strings`);
  }
  return value;
}

function readField(key: string, raw: unknown, where: string): FieldDefinition {
  // TOML allows the shorthand `key = "single_line_text_field"` for type-only fields.
  if (typeof raw === "string") return { key, name: key, type: raw, required: false, adminFilterable: false };
  if (!isTable(raw)) throw new Error(`${where} must be a table or a type string`);
  const type = optionalString(raw, "type", where);
  if (!type) throw new Error(`${where}.type is required`);
  const capabilities = isTable(raw.capabilities) ? raw.capabilities : {};
  return {
    key,
    name: optionalString(raw, "name", where) ?? key,
    type,
    required: raw.required === true,
    adminFilterable: capabilities.admin_filterable === true,
  };
}

/** A `[product.metafields.app.<key>]` definition: the app's own namespace on products. */
export interface MetafieldDefinition {
  ownerType: "PRODUCT";
  /** The stored form, `app--<apiClientId>`. */
  namespace: string;
  key: string;
  type: string;
  /** `access.storefront`: whether storefronts (Liquid, the Storefront API) may read it. */
  storefront: "public_read" | "none";
}

export interface AppConfig {
  definitions: MetaobjectDefinitions;
  metafieldDefinitions: MetafieldDefinition[];
  /** `[access_scopes] scopes`, what the platform grants every installation. */
  scopes: string;
  /**
   * `[access_scopes] optional_scopes`: what the app may ask a merchant for at run time (App Bridge
   * `scopes.request`); granted per shop only once the merchant approves (shopify.dev, "Manage access scopes").
   */
  optionalScopes: string[];
}

/** Reads what the platform takes from the app's shopify.app.toml. */
export function loadAppConfig(tomlPath: string, apiClientId: string): AppConfig {
  const toml = parse(readFileSync(tomlPath, "utf8"));
  const accessScopes = isTable(toml.access_scopes) ? toml.access_scopes : {};
  return {
    definitions: metaobjectDefinitions(toml, apiClientId),
    metafieldDefinitions: productMetafieldDefinitions(toml, apiClientId),
    scopes: optionalString(accessScopes, "scopes", "access_scopes") ?? "",
    optionalScopes: stringList(accessScopes, "optional_scopes", "access_scopes"),
  };
}

/** The `[metaobjects.app.*]` definitions the app declares. */
function metaobjectDefinitions(toml: Table, apiClientId: string): MetaobjectDefinitions {
  const metaobjects = isTable(toml.metaobjects) ? toml.metaobjects : {};
  const app = isTable(metaobjects.app) ? metaobjects.app : {};
  const byType = new Map<string, MetaobjectDefinition>();
  Object.entries(app).forEach(([name, raw], index) => {
    const where = `metaobjects.app.${name}`;
    if (!isTable(raw)) throw new Error(`${where} must be a table`);
    const fields = isTable(raw.fields) ? raw.fields : {};
    byType.set(name, {
      index,
      type: `app--${apiClientId}--${name}`,
      name: optionalString(raw, "name", where) ?? name,
      displayNameKey: optionalString(raw, "display_name_field", where),
      fields: Object.entries(fields).map(([key, field]) => readField(key, field, `${where}.fields.${key}`)),
    });
  });
  const storedPrefix = `app--${apiClientId}--`;
  return {
    resolve(type) {
      if (type.startsWith("$app:")) return byType.get(type.slice("$app:".length));
      if (type.startsWith(storedPrefix)) return byType.get(type.slice(storedPrefix.length));
      return undefined;
    },
  };
}

/** The `[product.metafields.app.*]` definitions the app declares. */
function productMetafieldDefinitions(toml: Table, apiClientId: string): MetafieldDefinition[] {
  const product = isTable(toml.product) ? toml.product : {};
  const metafields = isTable(product.metafields) ? product.metafields : {};
  const app = isTable(metafields.app) ? metafields.app : {};
  return Object.entries(app).map(([key, raw]) => {
    const where = `product.metafields.app.${key}`;
    if (!isTable(raw)) throw new Error(`${where} must be a table`);
    const type = optionalString(raw, "type", where);
    if (!type) throw new Error(`${where}.type is required`);
    const access = isTable(raw.access) ? raw.access : {};
    const storefront = optionalString(access, "storefront", `${where}.access`) ?? "none";
    if (storefront !== "public_read" && storefront !== "none") {
      throw new Error(`${where}.access.storefront must be "public_read" or "none"`);
    }
    return { ownerType: "PRODUCT", namespace: `app--${apiClientId}`, key, type, storefront };
  });
}
