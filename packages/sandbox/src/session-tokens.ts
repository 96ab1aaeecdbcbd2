// Token signing as the platform signs, with no test-runner dependency: the sandbox (its admin links),
// the tests and the soak (a plain script) share it.
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
 * A point-of-sale UI extension session token as the platform issues it: the same OpenID Connect ID
 * token App Bridge issues in the admin ("App Authentication" on shopify.dev's POS UI extensions
 * page; decision 0019): HS256 with the app's client secret, iss the shop's admin, dest the shop, aud
 * the client id, sub the numeric id of the user logged into POS (not the staff member pinned in),
 * sid the session.
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

/**
 * An admin session token as App Bridge presents it (the platform's "Session tokens" page): iss the
 * shop's admin, dest the shop, both with https, aud the client id, sub the staff user. The
 * library's own test helper writes iss without its scheme, which the app's admin door refuses.
 * The platform documents no claim by which it differs from a POS token, so it is minted as one.
 */
export function adminSessionToken(options: {
  shop: string;
  apiKey: string;
  apiSecret: string;
  staffUserId?: string;
  overrides?: Partial<Record<string, unknown>>;
}): Promise<string> {
  return posSessionToken({ staffUserId: "902541635", ...options });
}

/**
 * `request` as the embedded admin sends it with a fresh admin session token: a document request
 * carries it as id_token beside embedded, shop and host (App Bridge's bounce adds them), a fetch
 * as its bearer.
 */
export async function withAdminSession(
  request: Request,
  app: { shop: string; apiKey: string; apiSecret: string },
  presented: "document" | "bearer",
): Promise<Request> {
  const token = await adminSessionToken(app);
  if (presented === "bearer") {
    const signed = new Request(request);
    signed.headers.set("Authorization", `Bearer ${token}`);
    return signed;
  }
  const url = new URL(request.url);
  url.searchParams.set("embedded", "1");
  url.searchParams.set("shop", app.shop);
  url.searchParams.set(
    "host",
    Buffer.from(`admin.shopify.com/store/${app.shop.replace(/\.myshopify\.com$/, "")}`).toString("base64"),
  );
  url.searchParams.set("id_token", token);
  return new Request(url.href, request);
}

/** The URL that opens `pagePath` of the embedded admin for `app.shop`, logged in: a fresh id_token, as the admin's iframe loads it. */
export async function signedAdminUrl(
  baseUrl: string,
  pagePath: string,
  app: { shop: string; apiKey: string; apiSecret: string },
): Promise<string> {
  return (await withAdminSession(new Request(new URL(pagePath, baseUrl)), app, "document")).url;
}
