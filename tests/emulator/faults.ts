import type { ApiName, FaultKind, FaultSpec } from "./types";
import { jsonReply, type Reply } from "./reply";

export interface FaultQueue {
  add(spec: FaultSpec): void;
  /** Consumes one use of the oldest pending fault that matches the request, if any. */
  take(api: ApiName, operationName: string | undefined): FaultKind | undefined;
  clear(): void;
}

export function createFaultQueue(): FaultQueue {
  const pending: { spec: FaultSpec; remaining: number }[] = [];
  return {
    add(spec) {
      const remaining = spec.times ?? 1;
      if (remaining > 0) pending.push({ spec, remaining });
    },
    take(api, operationName) {
      const index = pending.findIndex(
        ({ spec }) =>
          (spec.api === undefined || spec.api === api) &&
          (spec.operationName === undefined || spec.operationName === operationName),
      );
      const fault = pending[index];
      if (!fault) return undefined;
      fault.remaining -= 1;
      if (fault.remaining <= 0) pending.splice(index, 1);
      return fault.spec.kind;
    },
    clear() {
      pending.length = 0;
    },
  };
}

export const THROTTLED_ERROR = {
  message: "Throttled",
  extensions: { code: "THROTTLED", documentation: "https://shopify.dev/api/usage/rate-limits" },
};

/** The answer to an injected fault other than "throttled", whose body depends on the API. */
export function faultReply(kind: Exclude<FaultKind, "throttled">): Reply {
  switch (kind) {
    case "http500":
      return jsonReply(500, { errors: "Internal Server Error" });
    case "http503":
      return jsonReply(503, { errors: "Service Unavailable" });
    case "http429":
      // The graphql-client retries 429s and waits Retry-After before the next try.
      return jsonReply(
        429,
        { errors: "Exceeded 2 calls per second for api client. Reduce request rates to resume uninterrupted service." },
        { "Retry-After": "1" },
      );
    case "network":
      return "network-error";
  }
}
