import { randomUUID } from "node:crypto";
import { jsonReply, type Reply } from "./reply";
import type { ApiName, FaultKind, FaultSpec } from "./types";

export interface FaultQueue {
  add(spec: FaultSpec): void;
  /** Consumes one use of the oldest pending fault that matches the request, if any. */
  take(api: ApiName, operationName: string | undefined, shop: string): FaultSpec | undefined;
  /**
   * Resolves once the request is given up: its client aborted it, or clear() ran. A hung request
   * holds no timer, so it costs the emulator nothing while it waits.
   */
  hang(signal: AbortSignal): Promise<void>;
  /** Drops the pending faults and releases every hung request. */
  clear(): void;
}

export function createFaultQueue(): FaultQueue {
  const pending: { spec: FaultSpec; remaining: number; toSkip: number }[] = [];
  const hung = new Set<() => void>();
  return {
    add(spec) {
      if (spec.kind === "delay" && !(typeof spec.delayMs === "number" && spec.delayMs >= 0)) {
        throw new Error("emulator: a delay fault needs delayMs >= 0");
      }
      const remaining = spec.times ?? 1;
      if (remaining > 0) pending.push({ spec, remaining, toSkip: spec.skip ?? 0 });
    },
    take(api, operationName, shop) {
      const index = pending.findIndex(
        ({ spec }) =>
          (spec.api === undefined || spec.api === api) &&
          (spec.shop === undefined || spec.shop === shop) &&
          (spec.operationName === undefined || spec.operationName === operationName),
      );
      const fault = pending[index];
      if (!fault) return undefined;
      if (fault.toSkip > 0) {
        fault.toSkip -= 1;
        return undefined;
      }
      fault.remaining -= 1;
      if (fault.remaining <= 0) pending.splice(index, 1);
      return fault.spec;
    },
    hang(signal) {
      return new Promise((resolve) => {
        if (signal.aborted) return resolve();
        const release = () => {
          signal.removeEventListener("abort", release);
          hung.delete(release);
          resolve();
        };
        hung.add(release);
        signal.addEventListener("abort", release);
      });
    },
    clear() {
      pending.length = 0;
      for (const release of [...hung]) release();
    },
  };
}

export const THROTTLED_ERROR = {
  message: "Throttled",
  extensions: { code: "THROTTLED", documentation: "https://shopify.dev/api/usage/rate-limits" },
};

/** The answer to an injected fault that replaces the platform's answer, whose body does not depend on the API. */
export function faultReply(kind: Exclude<FaultKind, "throttled" | "hang" | "delay" | "hangAfterWork">): Reply {
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
    case "graphqlErrors": {
      const requestId = randomUUID();
      return jsonReply(200, {
        data: null,
        errors: [
          {
            message: `Internal error. Looks like something went wrong on our end.\nRequest ID: ${requestId} (include this in support requests).`,
            extensions: { code: "INTERNAL_SERVER_ERROR", requestId },
          },
        ],
      });
    }
    case "network":
      return "network-error";
  }
}
