// Token signing with no test-runner dependency, shared by the tests and the soak (a plain script).
import { randomUUID } from "node:crypto";
import { SignJWT, type JWTPayload } from "jose";

/** Signs arbitrary claims HS256; undefined values are dropped so a test can omit a claim. */
export function signHs256(claims: JWTPayload, secret: string, header: Record<string, unknown> = {}): Promise<string> {
  const payload = Object.fromEntries(Object.entries(claims).filter(([, value]) => value !== undefined));
  return new SignJWT(payload)
    .setProtectedHeader({ alg: "HS256", typ: "JWT", ...header })
    .sign(new TextEncoder().encode(secret));
}

/**
 * A customer-account UI extension session token as the platform issues it: HS256 with the app's
 * client secret, dest = shop, aud = client id, sub = customer GID (only for a logged-in customer).
 */
export function customerAccountSessionToken(options: {
  shop: string;
  apiKey: string;
  apiSecret: string;
  customerGid: string;
  overrides?: Partial<Record<string, unknown>>;
}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return signHs256(
    {
      dest: options.shop,
      aud: options.apiKey,
      sub: options.customerGid,
      exp: now + 300,
      nbf: now - 5,
      iat: now - 5,
      jti: randomUUID(),
      ...options.overrides,
    },
    options.apiSecret,
  );
}

/**
 * A point-of-sale UI extension session token as the platform issues it: signed like an admin
 * session token (HS256 with the app's client secret; iss the shop's admin, dest the shop, aud the
 * client id, sub the staff user's numeric id, sid the session).
 */
export function posSessionToken(options: {
  shop: string;
  apiKey: string;
  apiSecret: string;
  staffUserId: string;
  overrides?: Partial<Record<string, unknown>>;
}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return signHs256(
    {
      iss: `https://${options.shop}/admin`,
      dest: `https://${options.shop}`,
      aud: options.apiKey,
      sub: options.staffUserId,
      exp: now + 60,
      nbf: now - 5,
      iat: now - 5,
      jti: randomUUID(),
      sid: randomUUID(),
      ...options.overrides,
    },
    options.apiSecret,
  );
}
