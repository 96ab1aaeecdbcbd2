import { z } from "zod";
import { CUSTOMER_GID_PATTERN } from "~/services/direct-access/direct-token.server";
import { STOREFRONT_API_VERSION } from "~/platform/api-versions";
import { fetchPlatformJson, IdentityLookupError } from "~/platform/platform-json.server";
import { exchangeResolvedCustomer } from "./issue-direct-access.server";
import type { DirectAccessGrant, HeadlessLegacyExchangeRequest } from "./schemas";

const CUSTOMER_ID_QUERY = `#graphql
  query SavedItemsStorefrontCustomerId($customerAccessToken: String!) {
    customer(customerAccessToken: $customerAccessToken) {
      id
    }
  }
`;

/**
 * The Storefront documents this module sends, by their exact text: `npm run graphql-codegen` fills
 * this in (app/types/storefront.generated.d.ts), so a document it has not typed does not compile.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface StorefrontQueries {}
type CustomerIdLookup = StorefrontQueries[typeof CUSTOMER_ID_QUERY];

// The answer is typed from the document, but it arrives from the network: parsing proves it has
// that shape, and the id the pattern a direct token may carry, which no type can. The platform
// answers an unknown or expired customer token with customer: null, not an error.
const CustomerIdResponseSchema: z.ZodType<{ data: CustomerIdLookup["return"] }> = z.object({
  data: z.object({ customer: z.object({ id: z.string().regex(CUSTOMER_GID_PATTERN) }).nullable() }),
});

/**
 * Headless, legacy path (legacy customer accounts, deprecated by the platform but kept per the
 * spec): the Storefront API resolves a customer access token, authorised by the public token.
 */
export async function exchangeStorefrontCustomerAccessToken(
  body: HeadlessLegacyExchangeRequest,
): Promise<DirectAccessGrant> {
  return exchangeResolvedCustomer(body.shop, () => resolveCustomerGid(body), {
    code: "INVALID_LEGACY_STOREFRONT_TOKEN",
    message:
      "The storefront customer access token or the storefront access token was not accepted by the shop; renew the customer access token (customerAccessTokenCreate), check the shop's public Storefront token, then exchange again",
  });
}

async function resolveCustomerGid(body: HeadlessLegacyExchangeRequest): Promise<string> {
  const variables: CustomerIdLookup["variables"] = { customerAccessToken: body.storefrontCustomerAccessToken };
  const { body: answer } = await fetchPlatformJson(`https://${body.shop}/api/${STOREFRONT_API_VERSION}/graphql.json`, {
    method: "POST",
    headers: {
      "X-Shopify-Storefront-Access-Token": body.storefrontAccessToken,
      "Content-Type": "application/json",
      Accept: "application/json",
    },
    body: JSON.stringify({ query: CUSTOMER_ID_QUERY, variables }),
  });
  const parsed = CustomerIdResponseSchema.safeParse(answer);
  if (!parsed.success) throw new IdentityLookupError(`the Storefront API of ${body.shop} answered without data`);
  const customer = parsed.data.data.customer;
  // An unknown token is the caller's problem, not an outage: 401 semantics, so no log line.
  if (!customer) throw new IdentityLookupError("the storefront customer access token is unknown or expired", 401);
  return customer.id;
}
