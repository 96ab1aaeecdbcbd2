// Builds the theme app extension's script from its TypeScript source: one minified ES2019 IIFE,
// the asset the blocks load (`npm run build:extensions`). The customer-account extensions need no
// step here: the platform's CLI bundles them from their entry modules on `shopify app build|deploy`.
// tests/theme/script-size.test.ts fails while the committed asset differs from this build.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build, type BuildOptions } from "esbuild";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export const BUILD_COMMAND = "npm run build:extensions";
export const THEME_SCRIPT_SOURCE = path.join(repoRoot, "extensions/saved-items-theme-src");
export const THEME_SCRIPT_ASSET = path.join(repoRoot, "extensions/saved-items-theme/assets/saved-items.js");

export const themeScriptBuild = {
  entryPoints: [path.join(THEME_SCRIPT_SOURCE, "main.ts")],
  outfile: THEME_SCRIPT_ASSET,
  bundle: true,
  format: "iife",
  target: "es2019",
  minify: true,
  legalComments: "none",
  // The asset must stay under 10,000 bytes, so two more squeezes than minify's:
  // class fields as plain assignments (nothing relies on define semantics), and short names for
  // properties that never leave the script. Only names that are no wire field, DOM or Response
  // member, or key of the JSON kept in localStorage may be listed here.
  tsconfigRaw: { compilerOptions: { useDefineForClassFields: false } },
  mangleProps: /^(storefrontRoot|api|shop|maxAttempts|baseDelayMs|maxDelayMs|sleep|retryAfterMs|fresh)$/,
  charset: "utf8",
  banner: { js: `/* Built from extensions/saved-items-theme-src by ${BUILD_COMMAND} */` },
  logLevel: "warning",
} satisfies BuildOptions;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await build(themeScriptBuild);
  console.log(`wrote ${path.relative(repoRoot, THEME_SCRIPT_ASSET)}`);
}
