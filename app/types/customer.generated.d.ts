/* eslint-disable eslint-comments/disable-enable-pair */
/* eslint-disable eslint-comments/no-unlimited-disable */
/* eslint-disable */
import type * as CustomerTypes from './customer.types.js';

export type SavedItemsCustomerAccountCustomerIdQueryVariables = CustomerTypes.Exact<{ [key: string]: never; }>;


export type SavedItemsCustomerAccountCustomerIdQuery = { customer: Pick<CustomerTypes.Customer, 'id'> };

interface GeneratedQueryTypes {
  "#graphql\n  query SavedItemsCustomerAccountCustomerId {\n    customer {\n      id\n    }\n  }\n": {return: SavedItemsCustomerAccountCustomerIdQuery, variables: SavedItemsCustomerAccountCustomerIdQueryVariables},
}

interface GeneratedMutationTypes {
}
declare module '~/services/direct-access/headless-modern.server' {
  type InputMaybe<T> = CustomerTypes.InputMaybe<T>;
  interface CustomerQueries extends GeneratedQueryTypes {}
  interface CustomerMutations extends GeneratedMutationTypes {}
}
