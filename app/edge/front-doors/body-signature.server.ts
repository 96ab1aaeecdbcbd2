import { createHmac, timingSafeEqual } from "node:crypto";
import { getEnv } from "~/config/env.server";

/** Where the platform puts a body's signature: webhooks and Flow's callbacks alike. */
export const BODY_SIGNATURE_HEADER = "x-shopify-hmac-sha256";

/** A body's signature being checked as its bytes arrive. */
export interface BodySignatureCheck {
  update(chunk: Uint8Array): void;
  /** Whether the bytes given so far are what the signature signs; call once, at the body's end. */
  matches(): boolean;
}

/**
 * The check of a body signed as the platform signs webhooks and Flow's callbacks: HMAC-SHA256 of
 * the raw body under the app's client secret, in base64 in BODY_SIGNATURE_HEADER. Fed chunk by
 * chunk, so a body can be checked as it arrives and a forged one never held more than once (the
 * HTTP server checks every such body before the app reads it: server/admission.ts). Undefined
 * when the request carries no signature at all.
 */
export function bodySignatureCheck(signature: string | undefined): BodySignatureCheck | undefined {
  if (!signature) return undefined;
  const hmac = createHmac("sha256", getEnv().SHOPIFY_API_SECRET);
  return {
    update: (chunk) => void hmac.update(chunk),
    matches() {
      const received = Buffer.from(signature, "base64");
      const expected = hmac.digest();
      return received.length === expected.length && timingSafeEqual(received, expected);
    },
  };
}
