import { describe } from "vitest";

// A real Redis, named by REDIS_URL: npm run test:services sets it; the default run has none.
const redisUnavailable = process.env.REDIS_URL
  ? undefined
  : "set REDIS_URL to a Redis server (npm run test:services does)";

/**
 * The tests of several instances: reported skipped, with the reason in their title, where there is
 * no Redis to share. The file's hooks run only when a test does.
 */
export function describeWithRedis(title: string, body: () => void): void {
  describe.skipIf(redisUnavailable !== undefined)(
    redisUnavailable ? `${title} (skipped: ${redisUnavailable})` : title,
    body,
  );
}

/** An app instance as the sandbox reports it (`/__sandbox/instances`). */
export interface InstanceInfo {
  index: number;
  url: string;
  pid: number;
  accepting: boolean;
  healthy: boolean;
}

export const listInstances = async (sandboxUrl: string) =>
  ((await (await fetch(`${sandboxUrl}/__sandbox/instances`)).json()) as { instances: InstanceInfo[] }).instances;
