import { createHash } from "node:crypto";
import type { Redis } from "ioredis";

/** A Lua script run by its hash, loaded on first use on each server (a restart forgets it). */
export type Script = (client: Redis, keys: readonly string[], args: readonly (string | number)[]) => Promise<unknown>;

function defineScript(lua: string): Script {
  const sha = createHash("sha1").update(lua).digest("hex");
  return async (client, keys, args) => {
    try {
      return await client.evalsha(sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith("NOSCRIPT")) throw error;
      return client.eval(lua, keys.length, ...keys, ...args);
    }
  };
}

/**
 * KEYS: the fence counter, then the lock keys in sorted order. ARGV: token, lease (ms).
 * Takes the locks in order and stops at the first one held by someone else, keeping the ones
 * before it (the sorted order is what makes holding them while waiting deadlock-free).
 * Returns {taken, lease left on the blocking lock (ms)}, or {taken = all, fence} once every lock
 * is held. The fence is drawn only then, after every earlier holder of these keys drew theirs.
 * A fence counter that is missing (first use, or Redis lost its data) restarts from the server's
 * time in microseconds, so fences keep increasing across a restart without persistence as long as
 * fewer than one lock was taken per microsecond before it.
 */
export const acquireLocks = defineScript(`
for i = 2, #KEYS do
  if not redis.call('SET', KEYS[i], ARGV[1], 'NX', 'PX', ARGV[2]) then
    return {i - 2, redis.call('PTTL', KEYS[i])}
  end
end
local fence = redis.call('INCR', KEYS[1])
if fence == 1 then
  local now = redis.call('TIME')
  redis.call('SET', KEYS[1], now[1] .. string.sub('00000' .. now[2], -6))
  fence = redis.call('INCR', KEYS[1])
end
return {#KEYS - 1, fence}
`);

/** KEYS: lock keys. ARGV: token, lease (ms). Extends the locks still held by token; returns how many. */
export const extendLocks = defineScript(`
local held = 0
for i = 1, #KEYS do
  if redis.call('GET', KEYS[i]) == ARGV[1] then
    redis.call('PEXPIRE', KEYS[i], ARGV[2])
    held = held + 1
  end
end
return held
`);

/**
 * KEYS: lock keys. ARGV: token. Deletes the locks still held by token and announces each on the
 * channel named like its key, where waiters listen; returns how many it released.
 */
export const releaseLocks = defineScript(`
local released = 0
for i = 1, #KEYS do
  if redis.call('GET', KEYS[i]) == ARGV[1] then
    redis.call('DEL', KEYS[i])
    redis.call('PUBLISH', KEYS[i], '')
    released = released + 1
  end
end
return released
`);

/**
 * KEYS: the bucket. ARGV: capacity, refill per second, cost, now (ms). The same arithmetic as the
 * local coordinator, on the callers' clocks (the service's `clock`, which instances keep in step
 * with NTP; a clock behind another only refills less, never more). A bucket left full is
 * the same as none, so every bucket expires when it would have refilled. Returns 0 when the
 * tokens were taken, otherwise the milliseconds until they could be.
 */
export const takeTokens = defineScript(`
local capacity = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local now = tonumber(ARGV[4])
local bucket = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = capacity
if bucket[1] then
  tokens = math.min(capacity, tonumber(bucket[1]) + math.max(0, now - tonumber(bucket[2])) / 1000 * rate)
end
local allowed = tokens >= cost
if allowed then tokens = tokens - cost end
local untilFull = math.ceil((capacity - tokens) / rate * 1000)
if untilFull > 0 then
  redis.call('HSET', KEYS[1], 'tokens', tokens, 'at', now)
  redis.call('PEXPIRE', KEYS[1], untilFull)
else
  redis.call('DEL', KEYS[1])
end
if allowed then return 0 end
return math.ceil((cost - tokens) / rate * 1000)
`);

/**
 * KEYS: the epoch. ARGV: a fresh random value. Returns the epoch, setting it when missing: a value
 * other than the one an instance saw before means Redis lost its data in between.
 */
export const readEpoch = defineScript(`
local epoch = redis.call('GET', KEYS[1])
if epoch then return epoch end
redis.call('SET', KEYS[1], ARGV[1])
return ARGV[1]
`);

/**
 * KEYS: a hash. ARGV: field, the field's version read with it ("" when absent), the new value
 * ("" deletes), the hash's time to live (ms). Writes only when nobody changed the field since it
 * was read (compare-and-set on a version kept beside it); returns 1 when written, 0 when not.
 */
export const compareAndSetField = defineScript(`
local version = redis.call('HGET', KEYS[1], ARGV[1] .. '#v') or ''
if version ~= ARGV[2] then return 0 end
if ARGV[3] == '' then
  redis.call('HDEL', KEYS[1], ARGV[1], ARGV[1] .. '#v')
else
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[3], ARGV[1] .. '#v', (tonumber(version) or 0) + 1)
end
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1
`);
