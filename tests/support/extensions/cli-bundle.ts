import { build } from "esbuild";

/**
 * The bundle as Shopify CLI (3.94) builds a UI extension: esbuild from a generated entry that
 * imports each target's module and registers it with shopify.extend, bundled from the extension's
 * folder (imports outside it, such as extensions/shared, included), automatic JSX, ES6, minified,
 * every identifier-named variable of the CLI's environment and the app's .env defined as
 * process.env.<NAME>. The bundle is then run as the platform runs it: a script in a page that has a
 * `shopify` global and no `process`.
 */
export async function cliBundle(
  root: string,
  target: string,
  module: string,
  env: Record<string, string>,
): Promise<string> {
  const define = Object.fromEntries(
    Object.entries({ NODE_ENV: "production", ...env }).map(([name, value]) => [
      `process.env.${name}`,
      JSON.stringify(value),
    ]),
  );
  const result = await build({
    stdin: {
      contents: `import Target_0 from '${module}';shopify.extend('${target}', (...args) => Target_0(...args));`,
      resolveDir: root,
      loader: "tsx",
    },
    bundle: true,
    define,
    jsx: "automatic",
    loader: { ".esnext": "ts", ".js": "jsx" },
    legalComments: "none",
    minify: true,
    target: "es6",
    resolveExtensions: [".tsx", ".ts", ".js", ".json", ".esnext", ".mjs", ".ejs"],
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles[0]!.text;
}
