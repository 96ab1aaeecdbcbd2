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

/** https://<host>/<path> → <SANDBOX_PLATFORM_URL>/<host>/<path>, the emulator's address scheme. */
function sandboxTarget(url: string): string | undefined {
  const base = getEnv().SANDBOX_PLATFORM_URL;
  if (!base) return undefined;
  const parsed = new URL(url);
  return `${base.replace(/\/+$/, "")}/${parsed.host}${parsed.pathname}${parsed.search}`;
}
