// Builds the theme app extension's scripts from their TypeScript source (`npm run build:extensions`):
// one minified ES2019 module per block kind (assets/saved-items-<kind>.js), and the code they share
// in chunks esbuild splits out (assets/saved-items-core-<hash>.js). A page loads only its blocks'
// modules; the browser fetches and runs each shared chunk once however many modules import it, so
// the saved state and its one list read stay one per page. The customer-account extensions need no
// step here: the platform's CLI bundles them from their entry modules on `shopify app build|deploy`.
// tests/theme/script-size.test.ts fails while the committed assets differ from this build.
import { readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build, type BuildOptions } from "esbuild";
import { repoRoot } from "@saved-items/sandbox/config";

export const BUILD_COMMAND = "npm run build:extensions";
export const THEME_SCRIPT_SOURCE = path.join(repoRoot, "extensions/saved-items-theme-src");
export const THEME_ASSETS = path.join(repoRoot, "extensions/saved-items-theme/assets");
/** The block kinds (data-si of a block's root), each with its entry module in the source's entries/. */
export const THEME_BLOCK_KINDS = ["button", "list", "cards", "cart"] as const;
/** Every file the build writes is named so: the build removes the stale ones before it writes. */
export const isThemeScript = (file: string) => /^saved-items-.*\.js$/.test(file);

export const themeScriptBuild = {
  entryPoints: THEME_BLOCK_KINDS.map((kind) => ({
    in: path.join(THEME_SCRIPT_SOURCE, "entries", `${kind}.ts`),
    out: `saved-items-${kind}`,
  })),
  outdir: THEME_ASSETS,
  chunkNames: "saved-items-core-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  target: "es2019",
  minify: true,
  legalComments: "none",
  // Each file must stay under 10,000 bytes, so two more squeezes than minify's:
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
  for (const file of readdirSync(THEME_ASSETS).filter(isThemeScript)) rmSync(path.join(THEME_ASSETS, file));
  const result = await build({ ...themeScriptBuild, metafile: true });
  for (const file of Object.keys(result.metafile.outputs)) console.log(`wrote ${file}`);
}
