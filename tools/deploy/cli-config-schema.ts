/**
 * What the platform's CLI (Shopify CLI) accepts in shopify.app.toml and in extension TOMLs, for the
 * sections this app uses. Written from the CLI's public source, github.com/Shopify/cli, read at commit
 * a0798d198d1c (packages/cli 4.7.0, Aug 2026); paths below are relative to packages/app/src/cli/
 * unless they name another package.
 *
 * Stricter than the CLI on purpose: its zod objects silently drop keys they do not know, and the
 * platform's own contracts (JSON Schemas the CLI downloads when logged in) reject them. Either way an
 * unknown key does not do what the file says, so here it fails. A section the app starts to use needs
 * its schema added here, with the source file it mirrors.
 */
import { z } from "zod";

// models/app/validation/common.ts: validateUrl (http or https) and validateRelativeUrl (https or "/...").
function isUrl(value: string, httpsOnly: boolean): boolean {
  try {
    const { protocol } = new URL(value);
    return httpsOnly ? protocol === "https:" : protocol === "http:" || protocol === "https:";
  } catch {
    return false;
  }
}
const Url = z.string().refine((value) => isUrl(value, false) && !value.includes("\n"), "Invalid URL");
const RelativeOrHttpsUrl = z
  .string()
  .refine((value) => value.startsWith("/") || isUrl(value, true), "URL must be HTTPS URL or start with /");

// models/extensions/specifications/validation/common.ts: WebhookSubscriptionUriValidation.
const WebhookUri = z
  .string()
  .refine(
    (uri) =>
      uri.startsWith("/") ||
      uri.startsWith("https://") ||
      /^pubsub:\/\/[^:]+:.+$/.test(uri) ||
      /^kafka:\/\/[a-zA-Z0-9_.-]+$/.test(uri) ||
      /^arn:aws:events:[a-z]{2}-[a-z]+-[0-9]+::event-source\/aws\.partner\/shopify\.com(\.test)?\/\d+\/.+$/.test(uri),
    "URI must be a path starting with /, an https URL, pubsub://, kafka:// or an EventBridge ARN",
  );

// models/extensions/specifications/app_config_webhook_schemas/webhook_subscription_schema.ts
const COMPLIANCE_TOPICS = ["customers/redact", "customers/data_request", "shop/redact"] as const;
const WebhookSubscription = z.strictObject({
  topics: z.array(z.string()).optional(),
  actions: z.array(z.string()).optional(),
  uri: WebhookUri,
  include_fields: z.array(z.string()).optional(),
  filter: z.string().optional(),
  payload_query: z.string().trim().min(1).optional(),
  name: z.string().trim().min(1).max(50).optional(),
  compliance_topics: z.array(z.enum(COMPLIANCE_TOPICS)).optional(),
});

// models/extensions/specifications/app_config_webhook_schemas/webhooks_schema.ts, with the rules of
// models/extensions/specifications/validation/app_config_webhook.ts (webhookValidator).
const Webhooks = z
  .strictObject({
    api_version: z.string(),
    privacy_compliance: z
      .strictObject({
        customer_deletion_url: WebhookUri.optional(),
        customer_data_request_url: WebhookUri.optional(),
        shop_deletion_url: WebhookUri.optional(),
      })
      .optional(),
    subscriptions: z.array(WebhookSubscription).optional(),
  })
  .superRefine((webhooks, ctx) => {
    const subscriptions = webhooks.subscriptions ?? [];
    if (webhooks.privacy_compliance && subscriptions.some((s) => s.compliance_topics)) {
      ctx.addIssue({
        code: "custom",
        message: "privacy_compliance cannot be combined with compliance_topics subscriptions",
      });
    }
    const compliance = subscriptions.flatMap((s) => s.compliance_topics ?? []);
    if (new Set(compliance).size !== compliance.length) {
      ctx.addIssue({
        code: "custom",
        path: ["subscriptions"],
        message: "a compliance topic is subscribed more than once",
      });
    }
    const seen = new Set<string>();
    subscriptions.forEach((s, index) => {
      if (!s.topics?.length && !s.compliance_topics?.length) {
        ctx.addIssue({ code: "custom", path: ["subscriptions", index], message: "needs topics or compliance_topics" });
      }
      for (const topic of s.topics ?? []) {
        const key = `${topic}::${s.uri.replace(/\/+$/, "")}::${s.filter ?? ""}`;
        if (seen.has(key))
          ctx.addIssue({ code: "custom", path: ["subscriptions", index], message: `duplicate subscription ${key}` });
        seen.add(key);
      }
    });
  });

// The field types of the platform's custom-data contract, as copied into the CLI's tests
// (packages/cli-kit/src/public/node/json-schema.test.ts, MetaFieldDefinitionTypes); reference types
// name their targets in angle brackets.
const FIELD_TYPES = new Set(
  (
    "boolean color date_time date dimension json language money multi_line_text_field number_decimal number_integer " +
    "rating rich_text_field single_line_text_field url link volume weight company_reference customer_reference " +
    "product_reference collection_reference variant_reference file_reference product_taxonomy_value_reference " +
    "metaobject_reference mixed_reference page_reference order_reference"
  ).split(" "),
);
const LISTABLE = new Set(
  (
    "color date_time date dimension number_decimal number_integer rating single_line_text_field url link volume weight " +
    "company_reference customer_reference product_reference collection_reference variant_reference file_reference " +
    "product_taxonomy_value_reference metaobject_reference mixed_reference page_reference"
  ).split(" "),
);
function isFieldType(type: string): boolean {
  if (/^(list\.)?(metaobject_reference|mixed_reference)<(\$app:[a-zA-Z0-9_-]+(,\s*)?)+>$/.test(type)) return true;
  if (type.startsWith("list.")) return LISTABLE.has(type.slice("list.".length));
  return FIELD_TYPES.has(type);
}
const FieldType = z
  .string()
  .refine(isFieldType, { error: (issue) => `unknown field type ${JSON.stringify(issue.input)}` });

// services/generate/shop-import/dcdd.d.ts: FieldObject, or the type alone (`key = "<type>"`), which is
// read here as the long form so errors point at the key that is wrong.
const MetaobjectField = z.preprocess(
  (field) => (typeof field === "string" ? { type: field } : field),
  z.strictObject({
    type: FieldType,
    name: z.string().optional(),
    description: z.string().optional(),
    required: z.boolean().optional(),
    validations: z.record(z.string(), z.unknown()).optional(),
    capabilities: z.strictObject({ admin_filterable: z.boolean().optional() }).optional(),
  }),
);

// services/generate/shop-import/dcdd.d.ts: MetaObject. Its access has admin and storefront only.
const Metaobject = z
  .strictObject({
    name: z.string().optional(),
    description: z.string().optional(),
    display_name_field: z.string().optional(),
    fields: z.record(z.string(), MetaobjectField),
    capabilities: z
      .strictObject({
        publishable: z.boolean().optional(),
        translatable: z.boolean().optional(),
        renderable: z.boolean().optional(),
        renderable_meta_title_field: z.string().optional(),
        renderable_meta_description_field: z.string().optional(),
      })
      .optional(),
    access: z
      .strictObject({
        admin: z.enum(["merchant_read", "merchant_read_write"]).optional(),
        storefront: z.enum(["none", "public_read"]).optional(),
      })
      .optional(),
  })
  // Not in the CLI: the platform derives display names from this field, so it has to be one of ours.
  .refine((definition) => !definition.display_name_field || definition.display_name_field in definition.fields, {
    message: "display_name_field must name one of the definition's fields",
    path: ["display_name_field"],
  });

// services/generate/shop-import/dcdd.d.ts: MetaobjectNamespaces.
const Metaobjects = z.strictObject({
  app: z.record(z.string(), Metaobject).optional(),
  standard_metaobjects: z.array(z.string()).optional(),
});

// Product metafield definitions in the app's namespace (`[product.metafields.app.<key>]`), as
// shopify.dev's declarative custom data guide shows them; written from that guide, not from
// dcdd.d.ts, and only for the owner type the app uses.
const MetafieldDefinition = z.strictObject({
  type: FieldType,
  name: z.string().optional(),
  description: z.string().optional(),
  validations: z.record(z.string(), z.unknown()).optional(),
  capabilities: z.strictObject({ admin_filterable: z.boolean().optional() }).optional(),
  access: z
    .strictObject({
      admin: z.enum(["merchant_read", "merchant_read_write"]).optional(),
      storefront: z.enum(["none", "public_read"]).optional(),
    })
    .optional(),
});
const ProductMetafields = z.strictObject({
  metafields: z.strictObject({ app: z.record(z.string(), MetafieldDefinition) }),
});

/**
 * shopify.app.toml. Required keys are the ones a module's schema requires: name (branding), application_url
 * and embedded (app home), auth (app access) and webhooks (webhooks).
 */
export const AppConfigSchema = z.strictObject({
  // models/app/app.ts: AppSchema.
  client_id: z.string(),
  build: z
    .strictObject({
      automatically_update_urls_on_dev: z.boolean().optional(),
      dev_store_url: z.string().optional(),
      // include_config_on_deploy is left out although AppSchema still parses it: deploy deletes it
      // from the file and says it is no longer supported (services/context.ts,
      // removeIncludeConfigOnDeployField), so a file that has it changes under the operator's hands.
    })
    .optional(),
  extension_directories: z.array(z.string()).optional(),
  web_directories: z.array(z.string()).optional(),

  // models/extensions/specifications/app_config_branding.ts. The handle rule here is stricter than the
  // CLI's pattern: lowercase letters, digits, "_" and "-", not starting or ending with "-".
  name: z.string().max(30),
  handle: z
    .string()
    .max(256)
    .regex(/^[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?$/)
    .optional(),

  // models/extensions/specifications/app_config_app_home.ts
  application_url: Url,
  embedded: z.boolean(),
  app_preferences: z.strictObject({ url: Url.max(255) }).optional(),

  // models/extensions/specifications/app_config_app_access.ts
  access: z
    .strictObject({
      admin: z
        .strictObject({
          direct_api_mode: z.enum(["online", "offline"]).optional(),
          embedded_app_direct_api_access: z.boolean().optional(),
        })
        .optional(),
    })
    .optional(),
  access_scopes: z
    .strictObject({
      scopes: z.string().optional(),
      required_scopes: z.array(z.string()).optional(),
      optional_scopes: z.array(z.string()).optional(),
      use_legacy_install_flow: z.boolean().optional(),
    })
    .optional(),
  auth: z.strictObject({ redirect_urls: z.array(Url) }),

  // models/extensions/specifications/app_config_webhook.ts (+ app_config_privacy_compliance_webhooks.ts,
  // which reads the same section).
  webhooks: Webhooks,

  // models/extensions/specifications/app_config_app_proxy.ts. A trailing slash is dropped before the check.
  app_proxy: z
    .strictObject({
      url: z.preprocess((value) => (typeof value === "string" ? value.replace(/\/+$/, "") : value), RelativeOrHttpsUrl),
      subpath: z.string(),
      prefix: z.string(),
    })
    .optional(),

  // models/extensions/specifications/app_config_point_of_sale.ts
  pos: z.strictObject({ embedded: z.boolean() }).optional(),

  // Declarative custom data: not a local schema in the CLI but a contract fetched from the platform;
  // the CLI's typed copy of it is services/generate/shop-import/dcdd.d.ts.
  metaobjects: Metaobjects.optional(),
  product: ProductMetafields.optional(),
});

// ---- Extensions: models/extensions/schemas.ts ----

const ExtensionHandle = z
  .string()
  .trim()
  .min(1)
  .max(50)
  .regex(/^[a-zA-Z0-9-]*$/, "alphanumeric characters and hyphens only")
  .refine((handle) => !handle.startsWith("-") && !handle.endsWith("-"), "cannot start or end with a hyphen");

const Capabilities = z.strictObject({
  network_access: z.boolean().optional(),
  block_progress: z.boolean().optional(),
  api_access: z.boolean().optional(),
  collect_buyer_consent: z
    .strictObject({ sms_marketing: z.boolean().optional(), customer_privacy: z.boolean().optional() })
    .optional(),
  iframe: z.strictObject({ sources: z.array(z.string()).optional() }).optional(),
});

const SettingsField = z.strictObject({
  key: z.string().optional(),
  name: z.string().optional(),
  description: z.string().optional(),
  required: z.boolean().optional(),
  default_value: z.unknown().optional(),
  type: z.string(),
  validations: z.array(z.unknown()).optional(),
  marketingActivityCreateUrl: z.string().optional(),
  marketingActivityDeleteUrl: z.string().optional(),
});
const Settings = z.strictObject({ fields: z.array(SettingsField).optional() });

const MetafieldRef = z.strictObject({ namespace: z.string(), key: z.string() });

// NewExtensionPointSchema: one [[extensions.targeting]] entry.
const Targeting = z.strictObject({
  target: z.string(),
  module: z.string(),
  should_render: z.strictObject({ module: z.string() }).optional(),
  tools: z.string().optional(),
  instructions: z.string().optional(),
  intents: z
    .array(
      z.strictObject({
        type: z.string(),
        action: z.string(),
        schema: z.string(),
        name: z.string().optional(),
        description: z.string().optional(),
      }),
    )
    .optional(),
  metafields: z.array(MetafieldRef).optional(),
  default_placement: z.string().optional(),
  urls: z.strictObject({ edit: z.string().optional() }).optional(),
  capabilities: z.strictObject({ allow_direct_linking: z.boolean().optional() }).optional(),
  preloads: z.strictObject({ chat: z.string().optional() }).optional(),
  assets: z.string().optional(),
});

// BaseSchema: the keys every extension type accepts.
const BASE_EXTENSION = {
  name: z.string().optional(),
  type: z.string().optional(),
  handle: ExtensionHandle.optional(),
  uid: z.string().trim().min(1).max(250).optional(),
  description: z.string().optional(),
  api_version: z.string().optional(),
  extension_points: z.unknown().optional(),
  capabilities: Capabilities.optional(),
  supported_features: z.strictObject({ runs_offline: z.boolean().optional() }).optional(),
  settings: Settings.optional(),
};

/** A theme app extension's TOML: models/extensions/specifications/theme.ts uses BaseSchema as is. */
export const ThemeExtensionSchema = z.strictObject({ ...BASE_EXTENSION, type: z.literal("theme") });

/**
 * One entry of a unified TOML's [[extensions]] of type ui_extension:
 * models/extensions/specifications/ui_extension.ts (UIExtensionSchema). In a unified file the loader
 * (models/app/loader.ts) refuses an entry without a handle.
 */
const UiExtensionEntry = z
  .strictObject({
    ...BASE_EXTENSION,
    name: z.string(),
    type: z.literal("ui_extension"),
    handle: ExtensionHandle,
    extension_points: z.array(Targeting).optional(),
    targeting: z.array(Targeting).optional(),
    metafields: z.array(MetafieldRef).optional(),
  })
  .refine((entry) => entry.targeting !== undefined || entry.extension_points !== undefined, {
    message: "No extension targets defined, add a `targeting` field",
  });

/** A unified extension TOML (models/extensions/schemas.ts: UnifiedSchema) whose entries are UI extensions. */
export const UnifiedUiExtensionsSchema = z.strictObject({
  api_version: z.string().optional(),
  description: z.string().optional(),
  extensions: z.array(UiExtensionEntry).min(1),
  settings: Settings.optional(),
});

// ---- Flow triggers: models/extensions/specifications/flow_trigger.ts, services/flow/ ----

/** Reference types a trigger may take (services/flow/constants.ts); each is sent as <object>_id. */
export const FLOW_TRIGGER_REFERENCE_TYPES = ["customer_reference", "order_reference", "product_reference"] as const;

const FlowTriggerField = SettingsField.extend({
  // FlowTriggerSettingsSchema: a key is letters and spaces only.
  key: z
    .string()
    .regex(/^[a-zA-Z\s]*$/, "String must contain only alphabetic characters and spaces")
    .optional(),
}).refine(
  (field) => (FLOW_TRIGGER_REFERENCE_TYPES as readonly string[]).includes(field.type) || field.key !== undefined,
  { message: "key property must be specified for non-commerce object fields" },
);

const FlowTriggerEntry = z.strictObject({
  ...BASE_EXTENSION,
  name: z.string(),
  type: z.literal("flow_trigger"),
  handle: ExtensionHandle.refine((handle) => handle.length <= 30, "Cannot exceed 30 characters"),
  schema: z.string().optional(),
});

/** A unified TOML declaring one Flow trigger, its fields in the shared [settings]. */
export const FlowTriggerExtensionSchema = z.strictObject({
  api_version: z.string().optional(),
  description: z.string().optional(),
  extensions: z.array(FlowTriggerEntry).length(1),
  settings: z.strictObject({ fields: z.array(FlowTriggerField).optional() }).optional(),
});

// ---- Flow trigger lifecycle callback: models/extensions/specifications/flow_trigger_lifecycle_callback.ts ----
// A contract-based module: the platform's JSON schema takes name and url, the url https or relative
// to application_url (appRelativeUrlFields: ["url"]).

export const FlowTriggerLifecycleCallbackSchema = z.strictObject({
  extensions: z
    .array(
      z.strictObject({
        name: z.string().optional(),
        type: z.literal("flow_trigger_lifecycle_callback"),
        handle: ExtensionHandle,
        url: z.string().regex(/^(https:\/\/|\/[^/])/, "an https URL, or a path relative to application_url"),
      }),
    )
    .length(1),
});

// ---- Theme app extension files: models/extensions/specifications/theme.ts (validateThemeExtension) ----
// The CLI checks these only on deploy, not on `shopify app build`.

const THEME_BUCKETS: Record<string, RegExp> = {
  assets: /\.(jpg|jpeg|json|js|css|png|svg|wasm)$/,
  blocks: /\.liquid$/,
  locales: /\.json$/,
  snippets: /\.liquid$/,
};
export const THEME_BUNDLE_LIMIT_BYTES = 10 * 1024 * 1024;
export const THEME_LIQUID_LIMIT_BYTES = 500 * 1024;

/** Problems the CLI would refuse a theme app extension for, given its files (paths relative to it). */
export function themeExtensionProblems(files: { path: string; bytes: number }[]): string[] {
  const problems: string[] = [];
  let total = 0;
  let liquid = 0;
  for (const { path, bytes } of files) {
    const parts = path.split("/");
    const bucket = parts.length === 2 ? parts[0]! : undefined;
    const pattern = bucket === undefined ? undefined : THEME_BUCKETS[bucket];
    if (!pattern) problems.push(`${path}: not directly inside one of ${Object.keys(THEME_BUCKETS).join(", ")}`);
    else if (!pattern.test(path)) problems.push(`${path}: file type not allowed in ${bucket}/`);
    total += bytes;
    if (bucket === "blocks" || bucket === "snippets") liquid += bytes;
  }
  if (total > THEME_BUNDLE_LIMIT_BYTES)
    problems.push(`the extension is ${total} bytes, over ${THEME_BUNDLE_LIMIT_BYTES}`);
  if (liquid > THEME_LIQUID_LIMIT_BYTES)
    problems.push(`its Liquid is ${liquid} bytes, over ${THEME_LIQUID_LIMIT_BYTES}`);
  return problems;
}

/** The CLI's normalisation of a scope list (packages/cli-kit/src/public/common/string.ts, normalizeDelimitedString). */
export function normaliseScopes(scopes: string): string {
  return [
    ...new Set(
      scopes
        .split(",")
        .map((scope) => scope.trim())
        .filter(Boolean),
    ),
  ]
    .sort()
    .join(",");
}

/** Readable zod issues: one "path: message" line each. */
export function describeIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`);
}

/**
 * The dotenv file the CLI reads for `--config <name>` (none: shopify.app.toml): `.env` for the default
 * configuration, `.env.<shorthand>` for shopify.app.<shorthand>.toml and no fallback to `.env`
 * (models/project/config-selection.ts, resolveDotEnv; models/app/loader.ts, getDotEnvFileName). A
 * name that is not already a file name is slugified into one (models/app/config-file-naming.ts,
 * getAppConfigurationFileName; cli-kit common/string.ts, slugify).
 */
export function cliDotEnvFileName(configName?: string): string {
  if (!configName) return ".env";
  const fileName = /^shopify\.app(\.[-\w]+)?\.toml$/.test(configName)
    ? configName
    : `shopify.app.${configName
        .toLowerCase()
        .trim()
        .replace(/[^\w\s-]/g, "")
        .replace(/[\s_-]+/g, "-")
        .replace(/^-+|-+$/g, "")}.toml`;
  const shorthand = /^shopify\.app\.([-\w]+)\.toml$/.exec(fileName)?.[1];
  return shorthand ? `.env.${shorthand}` : ".env";
}
