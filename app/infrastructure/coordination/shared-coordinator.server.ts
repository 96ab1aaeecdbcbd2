import type pg from "pg";
import { getEnv } from "~/config/env.server";
import { clearProcessCaches } from "~/lib/process-caches.server";
import type { Coordinator } from "./coordinator.server";
import { createFallbackStore } from "./fallback-store.server";
import { createLocalCoordinator } from "./local-coordinator.server";
import { createRedisCoordinator } from "./redis-coordinator.server";

let coordinator: Coordinator | undefined;
let resolveDatabase!: (pool: pg.Pool) => void;
const databaseForCoordination = new Promise<pg.Pool>((resolve) => (resolveDatabase = resolve));

/**
 * The database list locks fall back to while Redis is away (decision 0026): db.server.ts gives
 * the app's pool when it opens it, as lib sits below the module that opens the database.
 */
export function provideCoordinationDatabase(pool: pg.Pool): void {
  resolveDatabase(pool);
}

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
        fallback: createFallbackStore(() => databaseForCoordination, REDIS_KEY_PREFIX),
      })
    : createLocalCoordinator();
  return coordinator;
}
