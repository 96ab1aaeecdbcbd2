/**
 * When a customer redaction may be called complete, and when its next pass runs: pure decisions
 * over times, so the rules are tested without a platform or a database
 * (docs/decisions/0006-redaction-that-cannot-miss.md).
 *
 * A pass deletes what the platform's search finds of the customer. The search lags writes, so a
 * pass that finds nothing proves the customer has nothing left only if it started at least the
 * search lag after the customer's last write. Writes are refused from the moment the redaction is
 * recorded, but one admitted just before may still be running: its write lands at most
 * ADMITTED_WRITE_GRACE_MS later.
 */

/**
 * The longest a write admitted before the redaction was recorded (or before an instance saw the
 * record) keeps writing: the pending-redaction cache's version read, lock waits (5 s), and the
 * platform requests (5 s each, throttled ones retried twice after at most 2 s) of one operation.
 */
export const ADMITTED_WRITE_GRACE_MS = 30_000;
/** A running pass holds its record this long; a pass that died is taken over after it. */
export const PASS_LEASE_MS = 5 * 60_000;
/** A failed pass is retried after this, doubled per failure up to MAX_RETRY_DELAY_MS. */
const FIRST_RETRY_DELAY_MS = 30_000;
const MAX_RETRY_DELAY_MS = 60 * 60_000;
/** With no access to the shop (uninstalled), a reinstall runs the pass; the timer only checks back. */
export const NO_ACCESS_RETRY_MS = 60 * 60_000;

/** The earliest start of a pass whose finding nothing completes the redaction. */
export function settlesAt(requestedAt: Date, searchLagMs: number): Date {
  return new Date(requestedAt.getTime() + ADMITTED_WRITE_GRACE_MS + searchLagMs);
}

export type PassVerdict = { status: "completed" } | { status: "pending"; runAfter: Date };

/**
 * After a pass that ran to its end: complete when it started late enough and found nothing.
 * Otherwise it looks again once the search can have caught up: at the settle time, or, when a
 * pass that late still found records (writes later than the grace allowed for), one search lag
 * after this pass started, since everything it found was written before it started.
 */
export function judgePass(pass: {
  requestedAt: Date;
  startedAt: Date;
  found: { items: number; lists: number };
  searchLagMs: number;
}): PassVerdict {
  const settled = settlesAt(pass.requestedAt, pass.searchLagMs);
  const foundNothing = pass.found.items + pass.found.lists === 0;
  if (pass.startedAt >= settled) {
    if (foundNothing) return { status: "completed" };
    return { status: "pending", runAfter: new Date(pass.startedAt.getTime() + pass.searchLagMs) };
  }
  return { status: "pending", runAfter: settled };
}

/** When a pass that failed (the platform, the database) is tried again: after its attempts-th failure. */
export function retryAfterFailure(now: Date, attempts: number): Date {
  const delay = Math.min(FIRST_RETRY_DELAY_MS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_DELAY_MS);
  return new Date(now.getTime() + delay);
}
