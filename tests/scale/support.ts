/**
 * Why the tests of several instances cannot run here, or undefined when they can: they need a real
 * Redis, named by REDIS_URL (npm run test:services sets it; the default run has none).
 */
export function redisUnavailableReason(): string | undefined {
  return process.env.REDIS_URL ? undefined : "set REDIS_URL to a Redis server (npm run test:services does)";
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
