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
 * Lua helpers the scripts share. `increment`: a counter that, when missing (first use, or Redis lost
 * its data), restarts from the server's time in microseconds, so its values keep increasing across a
 * restart without persistence as long as fewer than one was drawn per microsecond before it.
 * `currentEpoch`: the epoch, set to `fresh` when missing.
 */
const SHARED = `
local function increment(counter)
  local value = redis.call('INCR', counter)
  if value == 1 then
    local now = redis.call('TIME')
    redis.call('SET', counter, now[1] .. string.sub('00000' .. now[2], -6))
    value = redis.call('INCR', counter)
  end
  return value
end
local function currentEpoch(key, fresh)
  local epoch = redis.call('GET', key)
  if epoch then return epoch end
  redis.call('SET', key, fresh)
  return fresh
end
`;

/**
 * KEYS: the fence counter, the embargo, then the lock keys in sorted order. ARGV: token, lease (ms).
 * Takes the locks in order and stops at the first one held by someone else, keeping the ones
 * before it (the sorted order is what makes holding them while waiting deadlock-free).
 * Returns {taken, lease left on the blocking lock (ms)}, or {taken = all, fence} once every lock
 * is held. While the embargo lasts (Redis lost its data, and locks it had may still have writes
 * in flight) nothing is taken: {0, embargo left}. The fence is drawn only once every lock is held,
 * after every earlier holder of these keys drew theirs, from a counter that keeps increasing
 * across a restart (`increment`).
 */
export const acquireLocks = defineScript(`${SHARED}
local embargo = redis.call('PTTL', KEYS[2])
if embargo > 0 then return {0, embargo} end
for i = 3, #KEYS do
  if not redis.call('SET', KEYS[i], ARGV[1], 'NX', 'PX', ARGV[2]) then
    return {i - 3, redis.call('PTTL', KEYS[i])}
  end
end
return {#KEYS - 2, increment(KEYS[1])}
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
 * KEYS: the bucket. ARGV: capacity, refill per second, cost, now (ms), "spend" to take the cost
 * even past zero (a debt) or "" to take it only when the bucket holds it. The same arithmetic as the
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
local allowed = ARGV[5] == 'spend' or tokens >= cost
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
 * KEYS: the epoch, the embargo. ARGV: a fresh random value, the epoch the caller saw before ("" if
 * none), the embargo to set (ms) when that epoch is gone. Returns the epoch, setting it when
 * missing: a value other than the one an instance saw before means Redis lost its data in between,
 * and with it the locks of writes that may still be in flight; the embargo holds back new locks and
 * cache fills until those writes have landed (or timed out).
 */
export const readEpoch = defineScript(`${SHARED}
local epoch = currentEpoch(KEYS[1], ARGV[1])
local embargo = tonumber(ARGV[3])
if ARGV[2] ~= '' and ARGV[2] ~= epoch and embargo > 0 and redis.call('PTTL', KEYS[2]) < embargo then
  redis.call('SET', KEYS[2], '1', 'PX', embargo)
end
return epoch
`);

/** Writes a field with a version drawn from one counter, so a version never repeats even when the hash expires and is written again. */
const WRITE_FIELD = `${SHARED}
local function write(hash, field, value, ttl, counter)
  if value == '' then
    redis.call('HDEL', hash, field, field .. '#v')
  else
    redis.call('HSET', hash, field, value, field .. '#v', increment(counter))
  end
  redis.call('PEXPIRE', hash, ttl)
end
`;

/**
 * KEYS: a hash, the version counter. ARGV: field, the field's version read with it ("" when
 * absent), the new value ("" deletes), the hash's time to live (ms). Writes only when nobody
 * changed the field since it was read (compare-and-set on a version kept beside it); returns 1
 * when written, 0 when not.
 */
export const compareAndSetField = defineScript(`${WRITE_FIELD}
local version = redis.call('HGET', KEYS[1], ARGV[1] .. '#v') or ''
if version ~= ARGV[2] then return 0 end
write(KEYS[1], ARGV[1], ARGV[3], ARGV[4], KEYS[2])
return 1
`);

/**
 * KEYS: a hash, the epoch. ARGV: field, a fresh random value. Returns {value or false, version
 * token}: the token names the Redis epoch, the field's version and the hash's last removal, so a
 * write conditioned on it fails after any change to the field, after the hash was removed, and
 * after Redis lost its data. An epoch found missing (its keys deleted while connections stayed up)
 * starts anew here, so what was read before the loss still never matches.
 */
export const readVersionedField = defineScript(`${SHARED}
local epoch = currentEpoch(KEYS[2], ARGV[2])
local found = redis.call('HMGET', KEYS[1], ARGV[1], ARGV[1] .. '#v', '#removed')
return {found[1], epoch .. '/' .. (found[2] or '') .. '/' .. (found[3] or '')}
`);

/**
 * KEYS: a hash, the epoch, the embargo, the version counter. ARGV: field, the token read with
 * readVersionedField, the new value, the hash's time to live (ms). Writes only when the token is
 * still the field's (nothing changed it or removed the hash, Redis kept its data) and no embargo
 * holds; returns 1 when written, 0 when not.
 */
export const installField = defineScript(`${WRITE_FIELD}
local epoch = redis.call('GET', KEYS[2])
if not epoch or redis.call('PTTL', KEYS[3]) > 0 then return 0 end
local found = redis.call('HMGET', KEYS[1], ARGV[1] .. '#v', '#removed')
if epoch .. '/' .. (found[1] or '') .. '/' .. (found[2] or '') ~= ARGV[2] then return 0 end
write(KEYS[1], ARGV[1], ARGV[3], ARGV[4], KEYS[4])
return 1
`);

/**
 * KEYS: a hash, the version counter. ARGV: how long the removal is remembered (ms). Empties the
 * hash, leaving a mark of the removal that a token read before it does not match.
 */
export const removeHash = defineScript(`${WRITE_FIELD}
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], '#removed', increment(KEYS[2]))
redis.call('PEXPIRE', KEYS[1], ARGV[1])
`);

/**
 * KEYS: a counter. ARGV: a value. Raises the counter to the value when it is below (the lock fence
 * counter, above the fences PostgreSQL drew while the locks were there).
 */
export const raiseCounter = defineScript(`
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
if current < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1]) end
`);
