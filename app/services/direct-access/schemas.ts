import { z } from "zod";
import { DIRECT_CHANNELS, SHOP_DOMAIN_PATTERN } from "~/services/channels";

/**
 * The exchange request and response shapes (spec §4.2), kept as zod so the OpenAPI document can
 * be generated from the same source the routes validate with.
 */

// The service fetches https://{shop}/..., so anything but a platform shop domain is refused at
// the edge: no request ever goes to a host the caller picks.
export const ShopDomainSchema = z
  .string()
  .max(255)
  .regex(SHOP_DOMAIN_PATTERN, "must be the shop's <name>.myshopify.com domain (lowercase, no scheme or path)");

// The platform's tokens are printable ASCII; they travel in headers and GraphQL variables, where a
// line break or a non-Latin-1 character would fail the outbound request instead of the caller's.
const UpstreamTokenSchema = z
  .string()
  .min(1, "must not be empty")
  .max(8192)
  .regex(/^[\x21-\x7E]*$/, "must be the token as the platform issued it: printable ASCII, no spaces or line breaks");

/** A Customer Account API access token from the platform's OAuth flow (new customer accounts). */
export const HeadlessModernExchangeRequestSchema = z.strictObject({
  shop: ShopDomainSchema,
  customerAccountAccessToken: UpstreamTokenSchema,
});
export type HeadlessModernExchangeRequest = z.infer<typeof HeadlessModernExchangeRequestSchema>;

/** A Storefront API customer access token (legacy customer accounts) plus the shop's public Storefront token. */
export const HeadlessLegacyExchangeRequestSchema = z.strictObject({
  shop: ShopDomainSchema,
  storefrontCustomerAccessToken: UpstreamTokenSchema,
  storefrontAccessToken: UpstreamTokenSchema,
});
export type HeadlessLegacyExchangeRequest = z.infer<typeof HeadlessLegacyExchangeRequestSchema>;

const EITHER_FIELD_SET =
  "send either {shop, customerAccountAccessToken} or {shop, storefrontCustomerAccessToken, storefrontAccessToken}, not both and no other fields";

/** Exactly one of the two field sets; both, neither or a mix fails (strict objects). */
export const HeadlessExchangeRequestSchema = z.union(
  [HeadlessModernExchangeRequestSchema, HeadlessLegacyExchangeRequestSchema],
  { error: (issue) => (issue.code === "invalid_union" ? EITHER_FIELD_SET : undefined) },
);
export type HeadlessExchangeRequest = z.infer<typeof HeadlessExchangeRequestSchema>;

export function isModernExchangeRequest(body: HeadlessExchangeRequest): body is HeadlessModernExchangeRequest {
  return "customerAccountAccessToken" in body;
}

/** `data` of a successful exchange; `authorization` is the header value to send on operation routes. */
export const DirectAccessGrantSchema = z.object({
  authorization: z.string().startsWith("Bearer "),
  tokenType: z.literal("Bearer"),
  expiresInSeconds: z.number().int(),
  expiresAt: z.iso.datetime(),
  channel: z.enum(DIRECT_CHANNELS),
  shop: ShopDomainSchema,
});
export type DirectAccessGrant = z.infer<typeof DirectAccessGrantSchema>;
