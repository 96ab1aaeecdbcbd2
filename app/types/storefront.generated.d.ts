/* eslint-disable eslint-comments/disable-enable-pair */
/* eslint-disable eslint-comments/no-unlimited-disable */
/* eslint-disable */
import type * as StorefrontTypes from './storefront.types.js';

export type SavedItemsStorefrontCustomerIdQueryVariables = StorefrontTypes.Exact<{
  customerAccessToken: StorefrontTypes.Scalars['String']['input'];
}>;


export type SavedItemsStorefrontCustomerIdQuery = { customer?: StorefrontTypes.Maybe<Pick<StorefrontTypes.Customer, 'id'>> };

interface GeneratedQueryTypes {
  "#graphql\n  query SavedItemsStorefrontCustomerId($customerAccessToken: String!) {\n    customer(customerAccessToken: $customerAccessToken) {\n      id\n    }\n  }\n": {return: SavedItemsStorefrontCustomerIdQuery, variables: SavedItemsStorefrontCustomerIdQueryVariables},
}

interface GeneratedMutationTypes {
}
declare module '~/services/direct-access/headless-legacy.server' {
  type InputMaybe<T> = StorefrontTypes.InputMaybe<T>;
  interface StorefrontQueries extends GeneratedQueryTypes {}
  interface StorefrontMutations extends GeneratedMutationTypes {}
}
