// The Saved Items theme script: every storefront page with one of the extension's blocks runs it.
// Built into extensions/saved-items-theme/assets/saved-items.js by `npm run build:extensions` (one
// minified ES2019 IIFE, held to the 10,000 bytes the platform's linter allows an app block's
// script). The blocks load it after the page's load event. It adds only window.SavedItems.init,
// which the theme editor's section reloads call too.
import { readBlockConfig, type BlockConfig } from "./block-config";
import { all, data, listen, setAttr } from "./dom";
import { initCardHearts } from "./card-hearts";
import { initSaveButton } from "./save-button";
import { startSession } from "./saved-state";
import { initSavedItemsList } from "./saved-items-list";

const started = new WeakSet<Element>();

const BLOCKS: Record<string, (config: BlockConfig) => Promise<void> | undefined> = {
  button: initSaveButton,
  list: initSavedItemsList,
  cards: initCardHearts,
};

/** Starts every block root under `scope` not started yet; data-si-ready marks a root whose saved state is loaded. */
function init(scope: ParentNode = document): void {
  for (const root of all(scope, "[data-si]")) {
    const start = BLOCKS[data(root, "si")];
    if (!start || started.has(root)) continue;
    started.add(root);
    const config = readBlockConfig(root);
    startSession(config);
    Promise.resolve(start(config)).then(() => setAttr(root, "data-si-ready", ""));
  }
}

if (!window.SavedItems) {
  window.SavedItems = { init };
  if (document.readyState === "loading") listen(document, "DOMContentLoaded", () => init());
  else init();
  listen(document, "shopify:section:load", (event) => init(event.target as ParentNode));
}
