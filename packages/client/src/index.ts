export {
  createCustomerAccountClient,
  createHeadlessClient,
  TOKEN_EXPIRED,
  type ClientOptions,
  type CustomerAccountClientOptions,
  type HeadlessClientOptions,
  type SavedItemsClient,
} from "./client.js";
export { requestEnvelope, parseRetryAfter, type FetchLike } from "./envelope.js";
export {
  BAD_RESPONSE,
  NETWORK_ERROR,
  REDIRECT_REFUSED,
  SavedItemsError,
  toSavedItemsError,
  type ClientErrorCode,
  type SavedItemsErrorCode,
  type ServiceErrorCode,
} from "./errors.js";
export {
  operationNames,
  type Channel,
  type HeadlessCredentials,
  type OperationErrorCode,
  type OperationInput,
  type OperationName,
  type OperationOutput,
  type Schemas,
} from "./operations.js";
export { DEFAULT_RETRY_POLICY, type RetryPolicy, type RetryRuntime } from "./retry.js";
export { TOKEN_REFRESH_MARGIN_MS } from "./token.js";
export type { components, paths } from "./generated/openapi.js";
