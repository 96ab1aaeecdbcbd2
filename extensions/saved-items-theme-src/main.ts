// The Saved Items theme script's core: what every block's module (entries/) shares. Built by `npm
// run build:extensions` into minified ES2019 modules, each held to the 10,000 bytes the platform's
// linter allows an app block's script; a page loads only its blocks' modules, after its load event
// (snippets/saved-items-script.liquid), and the code they share once. It adds only
// window.SavedItems.init, which the theme editor's section reloads call too.
import { readBlockConfig, type BlockConfig } from "./block-config";
import { all, data, listen, setAttr } from "./dom";
import { startSession } from "./saved-state";

const started = new WeakSet<Element>();

const blocks: Record<string, (config: BlockConfig) => Promise<void> | undefined> = {};

/** Starts every block root under `scope` not started yet; data-si-ready marks a root whose saved state is loaded. */
function init(scope: ParentNode = document): void {
  for (const root of all(scope, "[data-si]")) {
    const start = blocks[data(root, "si")];
    if (!start || started.has(root)) continue;
    started.add(root);
    const config = readBlockConfig(root);
    startSession(config);
    Promise.resolve(start(config)).then(() => setAttr(root, "data-si-ready", ""));
  }
}

/** A block module's registration: its kind's roots start now, and whenever a section reloads. */
export function defineBlock(kind: string, start: (config: BlockConfig) => Promise<void> | undefined): void {
  blocks[kind] = start;
  if (!window.SavedItems) {
    window.SavedItems = { init };
    listen(document, "shopify:section:load", (event) => init(event.target as ParentNode));
  }
  if (document.readyState === "loading") listen(document, "DOMContentLoaded", () => init());
  else init();
}
