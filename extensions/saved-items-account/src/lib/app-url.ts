/**
 * The app's base URL, injected at build time: Shopify CLI defines process.env.<NAME> in UI
 * extension bundles for the variables in the app's .env file and in its own environment. The
 * bundle has no `process` at run time, so a build without the variable throws on the read below
 * and the extension reports "not configured" instead of calling a wrong host.
 */
declare const process: { env: Record<string, string | undefined> };

/** The error code of a bundle built without the variable: the extension calls nothing. */
export const APP_URL_NOT_CONFIGURED = "APP_URL_NOT_CONFIGURED";

export function injectedAppUrl(): string | undefined {
  try {
    // Must stay this exact expression: it is what the bundler replaces.
    return process.env.SAVED_ITEMS_APP_URL;
  } catch {
    return undefined;
  }
}

/** https (http only for localhost), no query or fragment, no trailing slash; null when unusable. */
export function normaliseAppUrl(raw: string | undefined): string | null {
  if (!raw?.trim()) return null;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  const local = url.hostname === "localhost" || url.hostname === "127.0.0.1";
  if (url.protocol !== "https:" && !(local && url.protocol === "http:")) return null;
  if (url.search || url.hash || url.username || url.password) return null;
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

export function configuredAppUrl(): string | null {
  return normaliseAppUrl(injectedAppUrl());
}
