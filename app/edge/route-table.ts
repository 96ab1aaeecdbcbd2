import type { DirectChannel, PlanChannel } from "~/services/channels";
import type { OperationName } from "~/operations/operations";

/** Where the platform's app proxy forwards the storefront's calls, and where the direct channels call. */
const PROXY_ROOT = "/proxy";
const DIRECT_ROOT = "/api";

/**
 * Where each channel serves the operation catalogue (operations/operations.ts): one
 * param route per namespace (routes/<namespace>.$operation.ts), so an operation is added to the
 * catalogue and appears on every channel, in the API document and in the tests' router at once.
 */
export const OPERATION_NAMESPACES = {
  "online-store": `${PROXY_ROOT}/api`,
  headless: `${DIRECT_ROOT}/headless`,
  "customer-account": `${DIRECT_ROOT}/customer-account`,
  "point-of-sale": `${DIRECT_ROOT}/pos`,
} as const satisfies Record<PlanChannel, string>;

/**
 * What staff at the counter may do: read the chosen customer's list, nothing that changes it
 * (decision 0013). Every other channel serves the whole catalogue.
 */
export const POS_OPERATIONS: readonly OperationName[] = ["list"];

export function servesOperation(channel: PlanChannel, operation: OperationName): boolean {
  return channel !== "point-of-sale" || POS_OPERATIONS.includes(operation);
}

/**
 * A path the machine-facing routes own (the operations, the exchanges, the API document, the
 * proxy's pages): whatever goes wrong there is answered with the envelope, never with a page.
 */
export function isApiPath(pathname: string): boolean {
  return pathname.startsWith(`${PROXY_ROOT}/`) || pathname.startsWith(`${DIRECT_ROOT}/`);
}

/** The direct channels' token exchanges (the proxy channel is signed by the platform instead). */
export const EXCHANGE_PATHS = {
  headless: `${OPERATION_NAMESPACES.headless}/auth/exchange`,
  "customer-account": `${OPERATION_NAMESPACES["customer-account"]}/auth/exchange`,
} as const satisfies Record<DirectChannel, string>;

export function operationPath(channel: PlanChannel, operation: OperationName): string {
  return `${OPERATION_NAMESPACES[channel]}/${operation}`;
}
