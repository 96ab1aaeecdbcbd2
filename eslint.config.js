// Lint as the platform's app template does (typescript-eslint's recommended rules, React hooks,
// Prettier owning the formatting), run by `npm test` through `npm run lint`.
import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importX from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/**
 * The layers of docs/architecture.md, bottom first: a file may import its own layer or one below.
 * server/ sits above the whole app; packages/, tests/, tools/ and scripts/ above everything.
 */
const LAYERS = [
  { name: "lib", paths: ["app/lib", "app/config", "app/types"] },
  // The Redis coordinator, the embedded PostgreSQL server, the pools, the job runner: what the app
  // stands on, not leaf utilities. The whole folder, whatever new part it gains.
  { name: "infrastructure", paths: ["app/infrastructure"] },
  // The app's one database, opened from the parts below it; what runs on it is handed its client.
  { name: "database", paths: ["app/db.server.ts"] },
  { name: "platform", paths: ["app/platform"] },
  { name: "services", paths: ["app/services"] },
  // The operation API every channel serves: the catalogue and the dispatcher. Feature folders sit below it.
  { name: "operations", paths: ["app/operations"] },
  { name: "edge", paths: ["app/edge", "app/shopify.server.ts"] },
  { name: "routes", paths: ["app/routes", "app/components", "app/root.tsx", "app/entry.server.tsx"] },
  { name: "server", paths: ["server"] },
];

/**
 * The feature folders of app/services, bottom first: a folder imports only those below it, so no
 * arrow runs back up inside the services layer. The vocabulary every folder shares (plans,
 * channels, the caller) sits below them all; other files at app/services/ itself may compose the
 * folders. tests/architecture checks that every folder is listed.
 */
export const SERVICE_FOLDERS = [
  "installs",
  "direct-access",
  "usage",
  "billing",
  "records",
  "saved-items",
  "compliance",
  "insights",
  "saved-by",
  "flow",
  "merchant-pages",
];

const serviceFolder = (name) => `app/services/${name}`;
const serviceZones = [
  {
    target: ["app/services/plans.ts", "app/services/channels.ts", "app/services/caller.ts"],
    from: SERVICE_FOLDERS.map(serviceFolder),
    message: "Plans, channels and the caller sit below every feature folder (eslint.config.js, SERVICE_FOLDERS).",
  },
  ...SERVICE_FOLDERS.slice(0, -1).map((name, index) => ({
    target: serviceFolder(name),
    from: SERVICE_FOLDERS.slice(index + 1).map(serviceFolder),
    message: `services/${name} imports only the feature folders below it in SERVICE_FOLDERS (eslint.config.js).`,
  })),
];

const layerZones = LAYERS.slice(0, -1).map((layer, index) => ({
  target: layer.paths,
  from: LAYERS.slice(index + 1).flatMap((above) => above.paths),
  message: `${layer.name} imports only its own layer or those below it (docs/architecture.md#layers).`,
}));

/**
 * The one door to a customer's lists (app/services/saved-items/list-store/, docs/architecture.md):
 * only it takes the list locks, sends the records' writes of lists and items, changes the cached
 * list states and bumps the shared pages' versions, so no writer can skip a step of the protocol.
 */
export const LIST_STORE = "app/services/saved-items/list-store";
const LIST_STORE_ONLY =
  "is the list store's (app/services/saved-items/list-store/): write a customer's lists through it.";
export const LIST_WRITE_IMPORTS = [
  { group: ["**/list-locks.server"], message: `The list locks ${LIST_STORE_ONLY}` },
  {
    group: ["**/metaobject-store.server"],
    importNames: ["applyWrites", "deleteItemsById"],
    message: `Writing items ${LIST_STORE_ONLY}`,
  },
  {
    group: ["**/save-list.server"],
    importNames: ["writeNamedListRecords", "writeShareFields"],
    message: `Writing lists ${LIST_STORE_ONLY}`,
  },
  {
    group: ["**/retained-list.server"],
    importNames: ["writeRemovedItems", "dropRetainedList"],
    message: `Writing lists ${LIST_STORE_ONLY}`,
  },
  {
    group: ["**/list-state-store.server"],
    importNames: ["getListStateStore"],
    message: `Changing a cached list state ${LIST_STORE_ONLY} Readers take getListStateReader.`,
  },
  {
    group: ["**/shared-page-cache.server"],
    importNames: ["sharedLinksChanged", "sharedItemsChanged"],
    message: `Bumping the shared pages' versions ${LIST_STORE_ONLY}`,
  },
];

/** A metaobject's raw fields are records/'s: every other module takes and gives domain values. */
export const RAW_FIELD_IMPORTS = [
  {
    group: ["**/records/fields"],
    importNames: ["fieldValue", "SAVE_ITEM_FIELDS", "SAVE_LIST_FIELDS", "DIRECTORY_FIELDS", "INSIGHTS_FIELDS"],
    message: "Only app/services/records/ reads or writes a metaobject's fields by key: take its domain values.",
  },
];

export default tseslint.config(
  {
    ignores: [
      "build/",
      ".cache/",
      ".data/",
      "tests/.artifacts/",
      "extensions/saved-items-theme/assets/",
      "extensions/*/dist/",
      "extensions/*/shopify.d.ts",
      "app/types/",
      "packages/client/src/generated/",
      "packages/client/dist/",
      // Two modules that import each other, on purpose: tests/architecture/layers.test.ts lints them.
      "tests/architecture/fixtures/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
    },
  },
  {
    files: ["**/*.{ts,tsx}"],
    plugins: { "import-x": importX },
    settings: {
      // Without the TypeScript extensions and parser, no-cycle would read no .ts module and see no circle.
      ...importX.flatConfigs.typescript.settings,
      "import-x/resolver-next": [createTypeScriptImportResolver({ project: "tsconfig.json" })],
    },
    rules: {
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      "import-x/no-restricted-paths": [
        "error",
        {
          zones: [
            ...layerZones,
            ...serviceZones,
            {
              target: ["!(tests|tools)/**/*", "*.*"],
              from: "tests",
              message: "Only tests/ imports tests/ (and tools/ its tests/support).",
            },
            {
              // The benchmarks and the history checker drive a sandbox with the tests' own helpers
              // (tools/README.md); the tests themselves stay out of reach.
              target: "tools",
              from: "tests",
              except: ["./support"],
              message: "tools/ imports only tests/support of tests/ (tools/README.md).",
            },
            {
              target: ["app", "server", "packages", "scripts"],
              from: "tools",
              message: "Nothing the app ships or runs imports tools/ (tools/README.md).",
            },
            {
              // The emulator and the sandbox (packages/) never ship; the tests, scripts and benchmarks use them.
              target: ["app", "server"],
              from: "packages",
              message: "The app imports no package of packages/ (docs/architecture.md#layers).",
            },
            {
              // It emulates the platform for any app, so it knows nothing of this one nor of the sandbox.
              target: "packages/platform-emulator",
              from: ["app", "server", "packages/sandbox"],
              message:
                "The platform emulator imports neither the app nor the sandbox (packages/platform-emulator/README.md).",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["app/**/*.{ts,tsx}"],
    ignores: [`${LIST_STORE}/**`, "app/services/records/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [...LIST_WRITE_IMPORTS, ...RAW_FIELD_IMPORTS] }] },
  },
  {
    files: [`${LIST_STORE}/**/*.ts`],
    rules: { "no-restricted-imports": ["error", { patterns: RAW_FIELD_IMPORTS }] },
  },
  {
    // One logger: app/lib/json-log.ts's JSON lines, which operators and tests read (CONTRIBUTING).
    files: ["app/**/*.{ts,tsx}", "server/**/*.ts"],
    rules: { "no-console": "error" },
  },
  {
    // Tests read JSON envelopes and library internals; typing every one would only add noise.
    // The packages' tests and their test helpers likewise.
    files: [
      "tests/**/*.{ts,tsx}",
      "tools/**/*.ts",
      "packages/*/tests/**/*.ts",
      "packages/platform-emulator/src/testing.ts",
      "packages/sandbox/src/proxy-client.ts",
    ],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    files: ["**/*.{js,mjs,cjs}"],
    languageOptions: { globals: globals.node },
  },
  prettier,
);
