import { z } from "zod";
import { CUSTOMER_GID_PATTERN } from "~/services/direct-access/direct-token.server";
import { customerAccountGraphqlEndpoint } from "~/platform/customer-account-discovery.server";
import { fetchPlatformJson, IdentityLookupError } from "~/platform/platform-json.server";
import { exchangeResolvedCustomer } from "./issue-direct-access.server";
import type { DirectAccessGrant, HeadlessModernExchangeRequest } from "./schemas";

const CUSTOMER_ID_QUERY = `#graphql
  query SavedItemsCustomerAccountCustomerId {
    customer {
      id
    }
  }
`;

/**
 * The Customer Account documents this module sends, by their exact text: `npm run graphql-codegen`
 * fills this in (app/types/customer.generated.d.ts), so a document it has not typed does not compile.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface CustomerQueries {}

// The answer is typed from the document, but it arrives from the network: parsing proves it has
// that shape, and the id the pattern a direct token may carry, which no type can.
const CustomerIdResponseSchema: z.ZodType<{ data: CustomerQueries[typeof CUSTOMER_ID_QUERY]["return"] }> = z.object({
  data: z.object({ customer: z.object({ id: z.string().regex(CUSTOMER_GID_PATTERN) }) }),
});

/**
 * Headless, modern path: a Customer Account API access token proves the customer. The GraphQL
 * endpoint is discovered from the shop's well-known document (cached per shop), then asked for
 * the customer id.
 */
export async function exchangeCustomerAccountAccessToken(
  body: HeadlessModernExchangeRequest,
): Promise<DirectAccessGrant> {
  return exchangeResolvedCustomer(body.shop, () => resolveCustomerGid(body.shop, body.customerAccountAccessToken), {
    code: "INVALID_HEADLESS_SIGNATURE",
    message:
      "The customer account access token could not be verified with the shop's Customer Account API; sign the customer in again for a fresh token, then exchange it",
  });
}

async function resolveCustomerGid(shop: string, accessToken: string): Promise<string> {
  const { body: answer } = await fetchPlatformJson(await customerAccountGraphqlEndpoint(shop), {
    method: "POST",
    // The Customer Account API takes the raw token, with no "Bearer " prefix.
    headers: { Authorization: accessToken, "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify({ query: CUSTOMER_ID_QUERY }),
  });
  const parsed = CustomerIdResponseSchema.safeParse(answer);
  if (!parsed.success) throw new IdentityLookupError(`the Customer Account API of ${shop} returned no customer id`);
  return parsed.data.data.customer.id;
}
