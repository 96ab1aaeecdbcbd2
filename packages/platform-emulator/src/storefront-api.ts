import { executeOperation, prepareOperation } from "./graphql-execution";
import { graphqlRoute } from "./exchange";
import { jsonReply, NOT_FOUND } from "./reply";
import { getSchema } from "./schemas";
import { shopByDomain, violationReporter, type EmulatorState } from "./state";

const STOREFRONT_URL = /^https:\/\/([a-z0-9][a-z0-9-]*\.myshopify\.com)\/api\/([^/]+)\/graphql\.json$/;

// A missing or wrong public token gets a 401 with an UNAUTHORIZED GraphQL error and an empty
// message, the shape reported for the real endpoint (not confirmed against Shopify's docs).
// Tokenless Storefront access exists for some catalogue fields but not for `customer`, which is
// all the app asks for, so the emulator always requires the token.
const UNAUTHORIZED = jsonReply(401, { errors: [{ message: "", extensions: { code: "UNAUTHORIZED" } }] });

export function storefrontApiRoute(state: EmulatorState) {
  return graphqlRoute(state, {
    api: "storefront",
    url: STOREFRONT_URL,
    shopOf: ([domain]) => domain ?? "",
    handle: async ({ request, groups: [domain, version], graphql }) => {
      const shop = shopByDomain(state, domain);
      const schema = getSchema("storefront", version);
      if (!shop || !schema) return NOT_FOUND;
      const token = request.headers.get("X-Shopify-Storefront-Access-Token");
      if (shop.storefrontAccessToken === undefined || token !== shop.storefrontAccessToken) return UNAUTHORIZED;
      const prepared = prepareOperation(schema, graphql, violationReporter(state, "storefront", graphql.query));
      if ("rejection" in prepared) return prepared.rejection;
      const root = {
        // The platform answers an unknown or expired customer token with null, not an error.
        customer: ({ customerAccessToken }: { customerAccessToken: string }) => {
          const customer = shop.customers.find(
            (candidate) => candidate.storefrontCustomerAccessToken === customerAccessToken,
          );
          return customer ? { id: customer.id, email: null, firstName: null, lastName: null } : null;
        },
      };
      return jsonReply(200, await executeOperation(prepared, root));
    },
  });
}
