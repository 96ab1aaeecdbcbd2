import { getEnv } from "~/config/env.server";
import { clearProcessCaches } from "~/lib/process-caches.server";
import type { Coordinator } from "./coordinator.server";
import { createLocalCoordinator } from "./local-coordinator.server";
import { createRedisCoordinator } from "./redis-coordinator.server";

let coordinator: Coordinator | undefined;

/** The process's coordinator: shared through Redis when REDIS_URL is set, in-process otherwise. */
export function getCoordinator(): Coordinator {
  if (coordinator) return coordinator;
  const { REDIS_URL, REDIS_KEY_PREFIX, REDIS_COMMAND_TIMEOUT_MS } = getEnv();
  coordinator = REDIS_URL
    ? createRedisCoordinator({
        url: REDIS_URL,
        keyPrefix: REDIS_KEY_PREFIX,
        commandTimeoutMs: REDIS_COMMAND_TIMEOUT_MS,
        onDataLoss: clearProcessCaches,
      })
    : createLocalCoordinator();
  return coordinator;
}
