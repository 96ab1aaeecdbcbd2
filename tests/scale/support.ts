/**
 * Why the tests of several instances cannot run here, or undefined when they can: they need a real
 * Redis, named by REDIS_URL (npm run test:services sets it; the default run has none).
 */
export function redisUnavailableReason(): string | undefined {
  return process.env.REDIS_URL ? undefined : "set REDIS_URL to a Redis server (npm run test:services does)";
}
