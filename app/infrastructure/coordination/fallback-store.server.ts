import type pg from "pg";
import type { LockMode, ModeView, RenewalIntent } from "./coordination-mode";

/**
 * The statements behind the mode switch and the PostgreSQL list locks (decision 0026). Every
 * statement that grants something takes the mode row FOR SHARE and names the epoch it expects, and
 * every change of the mode updates that row: so a permit and a lock can only be granted in epochs
 * whose grants never overlap in time, and a grant that waited for a change of the mode sees the
 * changed row (PostgreSQL evaluates the condition again on it). The epoch is passed in, read from
 * an earlier statement, so whatever the grant's snapshot misses was committed before that epoch began.
 * Times are the database's (clock_timestamp()), never an instance's.
 */
export interface FallbackStore {
  /** Makes the scope's mode row ("redis", epoch 1) when there is none. */
  ensureMode(): Promise<void>;
  /** Renews the instance's row; see `renew` below. */
  renew(request: RenewalRequest): Promise<RenewalResult>;
  /** Moves the mode from "redis" in `epoch` to "postgres" (epoch + 1); nothing when it moved already. Says whether it did. */
  toPostgres(epoch: number): Promise<boolean>;
  /**
   * Moves the mode from "postgres" in `epoch` back to "redis" (epoch + 1) when it has been
   * "postgres" for minPostgresMs and no instance seen within voteWindowMs said it cannot reach
   * Redis; says whether it did.
   */
  toRedis(epoch: number, minPostgresMs: number, voteWindowMs: number): Promise<boolean>;
  /** Drops the instance's row, and its permit with it (graceful shutdown). */
  leave(instanceId: string): Promise<void>;
  /**
   * Takes (or takes again, for the same token) the lock on `key` in postgres-mode `epoch`, while no
   * Redis permit of any instance is alive; the fence, or undefined when it is held or refused.
   */
  takeLock(epoch: number, key: string, token: string, leaseMs: number): Promise<number | undefined>;
  /** Extends the token's locks while the mode is still postgres-mode `epoch`; how many were extended. */
  renewLocks(epoch: number, keys: readonly string[], token: string, leaseMs: number): Promise<number>;
  releaseLocks(keys: readonly string[], token: string): Promise<void>;
  /** Deletes what instances that died left behind: rows and locks expired for an hour. */
  sweep(): Promise<void>;
}

export interface RenewalRequest extends RenewalIntent {
  instanceId: string;
  permitValidityMs: number;
  redisReachable: boolean;
}

export interface RenewalResult extends ModeView {
  /** The epoch of the permit the instance holds after the renewal (granted, renewed or kept), if any. */
  permitEpoch: number | undefined;
  /** Whether any instance (this one included) still holds a Redis permit that has not expired. */
  permitsAlive: boolean;
  /** The database's clock, in microseconds since 1970. */
  nowMicros: number;
}

const ms = (parameter: string) => `${parameter} * interval '1 millisecond'`;
const NOW_MICROS = "(extract(epoch from clock_timestamp()) * 1000000)::bigint";

const RENEW = `
WITH m AS (SELECT epoch, mode FROM "CoordinationMode" WHERE scope = $1 FOR SHARE),
granted AS (
  SELECT m.epoch FROM m
  WHERE m.mode = 'redis' AND m.epoch = $3::bigint
    AND NOT EXISTS (SELECT 1 FROM "FallbackLock" l WHERE l.scope = $1 AND l."expiresAt" > clock_timestamp())
),
up AS (
  INSERT INTO "CoordinationInstance" AS i (scope, "instanceId", "permitEpoch", "permitExpiresAt", "seenAt", "redisReachable")
  SELECT $1, $2, (SELECT epoch FROM granted), clock_timestamp() + ${ms("$5")}, clock_timestamp(), $6 FROM m
  ON CONFLICT (scope, "instanceId") DO UPDATE SET
    "permitEpoch" = CASE WHEN EXCLUDED."permitEpoch" IS NOT NULL THEN EXCLUDED."permitEpoch" WHEN $4 THEN i."permitEpoch" END,
    "permitExpiresAt" = CASE WHEN EXCLUDED."permitEpoch" IS NOT NULL THEN EXCLUDED."permitExpiresAt" WHEN $4 THEN i."permitExpiresAt" END,
    "seenAt" = EXCLUDED."seenAt",
    "redisReachable" = EXCLUDED."redisReachable"
  RETURNING "permitEpoch", "permitEpoch" IS NOT NULL AND "permitExpiresAt" > clock_timestamp() AS alive
)
SELECT m.epoch, m.mode, (SELECT "permitEpoch" FROM up) AS "permitEpoch",
  coalesce((SELECT alive FROM up), false) OR EXISTS (
    SELECT 1 FROM "CoordinationInstance" o
    WHERE o.scope = $1 AND o."instanceId" <> $2 AND o."permitEpoch" IS NOT NULL AND o."permitExpiresAt" > clock_timestamp()
  ) AS "permitsAlive",
  ${NOW_MICROS} AS "nowMicros"
FROM m`;

const TAKE_LOCK = `
WITH m AS (SELECT epoch, mode FROM "CoordinationMode" WHERE scope = $1 FOR SHARE)
INSERT INTO "FallbackLock" AS l (scope, key, token, fence, "expiresAt")
SELECT $1, $3, $4, ${NOW_MICROS}, clock_timestamp() + ${ms("$5")} FROM m
WHERE m.mode = 'postgres' AND m.epoch = $2::bigint
  AND NOT EXISTS (
    SELECT 1 FROM "CoordinationInstance" i
    WHERE i.scope = $1 AND i."permitEpoch" IS NOT NULL AND i."permitExpiresAt" > clock_timestamp()
  )
ON CONFLICT (scope, key) DO UPDATE SET
  token = EXCLUDED.token, fence = greatest(EXCLUDED.fence, l.fence + 1), "expiresAt" = EXCLUDED."expiresAt"
  WHERE l."expiresAt" <= clock_timestamp() OR l.token = EXCLUDED.token
RETURNING fence`;

const RENEW_LOCKS = `
WITH m AS (SELECT 1 FROM "CoordinationMode" WHERE scope = $1 AND mode = 'postgres' AND epoch = $2::bigint FOR SHARE)
UPDATE "FallbackLock" l SET "expiresAt" = clock_timestamp() + ${ms("$5")}
WHERE l.scope = $1 AND l.key = ANY($3::text[]) AND l.token = $4 AND l."expiresAt" > clock_timestamp()
  AND EXISTS (SELECT 1 FROM m)`;

/** `pool` resolves to the pool to use (the app's, opened on first use). */
export function createFallbackStore(pool: pg.Pool | (() => Promise<pg.Pool>), scope: string): FallbackStore {
  const query = async <R extends pg.QueryResultRow>(sql: string, values: unknown[]) =>
    (typeof pool === "function" ? await pool() : pool).query<R>(sql, values);
  return {
    async ensureMode() {
      await query(
        `INSERT INTO "CoordinationMode" (scope, epoch, mode, "changedAt") VALUES ($1, 1, 'redis', clock_timestamp())
         ON CONFLICT (scope) DO NOTHING`,
        [scope],
      );
    },
    async renew(request) {
      const run = () =>
        query<{
          epoch: string;
          mode: LockMode;
          permitEpoch: string | null;
          permitsAlive: boolean;
          nowMicros: string;
        }>(RENEW, [
          scope,
          request.instanceId,
          request.permitFor ?? null,
          request.keepOldPermit,
          request.permitValidityMs,
          request.redisReachable,
        ]);
      let row = (await run()).rows[0];
      if (!row) {
        // Its row was deleted (a test's reset of every table): made again, in mode "redis".
        await this.ensureMode();
        row = (await run()).rows[0];
        if (!row) throw new Error(`No coordination mode row for ${scope}`);
      }
      return {
        epoch: Number(row.epoch),
        mode: row.mode,
        permitEpoch: row.permitEpoch === null ? undefined : Number(row.permitEpoch),
        permitsAlive: row.permitsAlive,
        nowMicros: Number(row.nowMicros),
      };
    },
    async toPostgres(epoch) {
      const { rowCount } = await query(
        `UPDATE "CoordinationMode" SET mode = 'postgres', epoch = epoch + 1, "changedAt" = clock_timestamp()
         WHERE scope = $1 AND epoch = $2::bigint AND mode = 'redis'`,
        [scope, epoch],
      );
      return rowCount === 1;
    },
    async toRedis(epoch, minPostgresMs, voteWindowMs) {
      const { rowCount } = await query(
        `UPDATE "CoordinationMode" SET mode = 'redis', epoch = epoch + 1, "changedAt" = clock_timestamp()
         WHERE scope = $1 AND epoch = $2::bigint AND mode = 'postgres' AND "changedAt" < clock_timestamp() - ${ms("$3")}
           AND NOT EXISTS (
             SELECT 1 FROM "CoordinationInstance" i
             WHERE i.scope = $1 AND i."seenAt" > clock_timestamp() - ${ms("$4")} AND NOT i."redisReachable"
           )`,
        [scope, epoch, minPostgresMs, voteWindowMs],
      );
      return rowCount === 1;
    },
    async leave(instanceId) {
      await query(`DELETE FROM "CoordinationInstance" WHERE scope = $1 AND "instanceId" = $2`, [scope, instanceId]);
    },
    async takeLock(epoch, key, token, leaseMs) {
      const { rows } = await query<{ fence: string }>(TAKE_LOCK, [scope, epoch, key, token, leaseMs]);
      return rows[0] ? Number(rows[0].fence) : undefined;
    },
    async renewLocks(epoch, keys, token, leaseMs) {
      const { rowCount } = await query(RENEW_LOCKS, [scope, epoch, keys, token, leaseMs]);
      return rowCount ?? 0;
    },
    async sweep() {
      await query(
        `DELETE FROM "CoordinationInstance" WHERE scope = $1 AND "seenAt" < clock_timestamp() - interval '1 hour'
           AND ("permitExpiresAt" IS NULL OR "permitExpiresAt" < clock_timestamp())`,
        [scope],
      );
      await query(
        `DELETE FROM "FallbackLock" WHERE scope = $1 AND "expiresAt" < clock_timestamp() - interval '1 hour'`,
        [scope],
      );
    },
    async releaseLocks(keys, token) {
      await query(`DELETE FROM "FallbackLock" WHERE scope = $1 AND key = ANY($2::text[]) AND token = $3`, [
        scope,
        keys,
        token,
      ]);
    },
  };
}
