import type { Channel } from "~/services/plans";
import type { OperationName } from "~/services/saved-items/operations";

/**
 * Where each channel serves the operation catalogue (services/saved-items/operations.ts): one
 * param route per namespace (routes/<namespace>.$operation.ts), so an operation is added to the
 * catalogue and appears on every channel, in the API document and in the tests' router at once.
 */
export const OPERATION_NAMESPACES = {
  "online-store": "/proxy/api",
  headless: "/api/headless",
  "customer-account": "/api/customer-account",
} as const satisfies Record<Channel, string>;

export type DirectChannel = Exclude<Channel, "online-store">;

/** The direct channels' token exchanges (the proxy channel is signed by the platform instead). */
export const EXCHANGE_PATHS = {
  headless: `${OPERATION_NAMESPACES.headless}/auth/exchange`,
  "customer-account": `${OPERATION_NAMESPACES["customer-account"]}/auth/exchange`,
} as const satisfies Record<DirectChannel, string>;

export function operationPath(channel: Channel, operation: OperationName): string {
  return `${OPERATION_NAMESPACES[channel]}/${operation}`;
}
