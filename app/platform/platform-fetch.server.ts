import { getEnv } from "~/config/env.server";

/** No platform call may hold a request longer than this unless its caller asks for less. */
export const PLATFORM_TIMEOUT_MS = 5_000;

export interface PlatformRequestInit extends RequestInit {
  timeoutMs?: number;
}

/**
 * Every request the app sends to the platform goes through here: it is bounded in time (an
 * answer that never comes aborts with a TimeoutError) and, in the sandbox only, sent to the
 * emulated platform instead of https://<host> (configuration refuses SANDBOX_PLATFORM_URL in
 * production).
 */
export function platformFetch(url: string | URL, init: PlatformRequestInit = {}): Promise<Response> {
  const { timeoutMs = PLATFORM_TIMEOUT_MS, ...rest } = init;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = rest.signal ? AbortSignal.any([rest.signal, timeout]) : timeout;
  const target = String(url);
  return fetch(sandboxTarget(target) ?? target, { ...rest, signal });
}

/**
 * Where the sandbox's front serves the emulated platform's pages to a browser (the hosted plan
 * selection page): the emulator itself listens on a loopback port the browser may not reach.
 */
export const SANDBOX_PLATFORM_PAGES_PATH = "/__sandbox/platform";

/**
 * A platform page the merchant's browser opens (https://<host>/<path>): itself, or in the sandbox
 * the emulated page at <SANDBOX_PLATFORM_PAGES_PATH>/<host>/<path> on the sandbox's own origin.
 */
export function platformPageUrl(url: string): string {
  if (!getEnv().SANDBOX_PLATFORM_URL) return url;
  const parsed = new URL(url);
  return `${SANDBOX_PLATFORM_PAGES_PATH}/${parsed.host}${parsed.pathname}${parsed.search}`;
}

/** https://<host>/<path> → <SANDBOX_PLATFORM_URL>/<host>/<path>, the emulator's address scheme. */
function sandboxTarget(url: string): string | undefined {
  const base = getEnv().SANDBOX_PLATFORM_URL;
  if (!base) return undefined;
  const parsed = new URL(url);
  return `${base.replace(/\/+$/, "")}/${parsed.host}${parsed.pathname}${parsed.search}`;
}
