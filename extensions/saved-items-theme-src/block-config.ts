import { data, find } from "./dom";

declare global {
  interface Window {
    SavedItems?: { init(scope?: ParentNode): void };
  }
}

/** A block's settings and strings, as its Liquid (snippets/saved-items-data.liquid) rendered them. */
export interface BlockConfig {
  root: HTMLElement;
  /** The block's aria-live region. */
  status: HTMLElement;
  /** The storefront's root for the page's locale: "/" or "/fr/". */
  storefrontRoot: string;
  /** The app proxy's API root under it, ending in "/". */
  api: string;
  context: string;
  source: string;
  shop: string;
  /** The logged-in customer's id, "" for a guest. */
  customer: string;
  text(key: string): string;
}

export function readBlockConfig(root: HTMLElement): BlockConfig {
  return {
    root,
    status: find(root, "[role=status]")!,
    storefrontRoot: data(root, "root"),
    api: data(root, "api"),
    context: data(root, "context"),
    source: data(root, "source"),
    shop: data(root, "shop"),
    customer: data(root, "customer"),
    text: (key) => data(root, `t-${key}`),
  };
}
