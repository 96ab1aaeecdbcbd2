import { writeLog } from "~/lib/json-log";
import type { Prisma } from "@prisma/client";
import prisma from "~/db.server";
import type { JobDefinition } from "~/infrastructure/jobs/job-runner.server";
import { runAfterAnswer } from "~/lib/after-answer.server";
import { ServiceError } from "~/lib/errors";
import { offlineAdminClient, type AdminGraphqlClient } from "~/platform/admin-graphql.server";
import { activeSavers } from "~/services/records/savers.server";
import { FLOW_TRIGGER_HANDLES, fireFlowTrigger, flowTriggerInUse, numericIdOf } from "./flow-triggers.server";
import type { VariantChange } from "./variant-changes";

/**
 * The fan-out of a products/update or inventory_levels/update change to the customers who saved
 * the item, made durable (docs/reach.md). The webhook is answered before anyone is told, so a run
 * that fails part-way (throttling beyond retries, a platform error, the process ending) would leave
 * the rest untold: the fan-out is recorded (ReachFanOut) before answering, and the record keeps
 * how far it got. Customers are told in one order, (change, numeric customer id), and the record's
 * position is written ahead of them a block at a time, so a resumed run skips everyone a previous
 * run told or may have told: nobody hears twice, and a run that dies loses at most a block.
 */

/** Customers claimed per database write; a run that dies mid-block leaves that many untold at most. */
const CLAIM_BLOCK = 20;
/** How long a run holds its record before another may take it over (the run died). */
const LEASE_MS = 10 * 60_000;
/** After a failed run, how long the next waits: the platform was throttling or failing. */
const RETRY_DELAY_MS = 30_000;
/** Runs of one fan-out at most; then it is dropped and logged. */
const MAX_ATTEMPTS = 5;
/** Older than this, a record is dropped unresumed: the change is stale news (the webhook ids' horizon). */
const MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
/** Records one delivery resumes at most, so a backlog spreads over deliveries. */
const RESUMED_PER_DELIVERY = 3;
/** How often the job resumes what no delivery resumed. */
const RESUME_INTERVAL_MS = 60_000;
/** Records one run of the job resumes at most; a full batch leaves the job due at once. */
const RESUMED_PER_RUN = 10;
/** How many savers one change notifies at most (pages of 100). */
const MAX_SAVER_PAGES = 20;

interface Position {
  change: number;
  customer: bigint;
}

const isAfter = (a: Position, b: Position) => a.change > b.change || (a.change === b.change && a.customer > b.customer);

/**
 * Records the fan-out (before the webhook is answered, so it survives the process) and runs it
 * once the webhook has its answer.
 */
export async function startFanOut(
  shop: string,
  webhookId: string,
  productGid: string,
  changes: readonly VariantChange[],
  admin: AdminGraphqlClient,
): Promise<void> {
  await prisma.reachFanOut.createMany({
    data: {
      shopDomain: shop,
      webhookId,
      productGid,
      changes: changes as unknown as Prisma.InputJsonValue,
      // Held by the run below; a resume takes it over only if that run dies.
      runAfter: new Date(Date.now() + LEASE_MS),
    },
    skipDuplicates: true,
  });
  runAfterAnswer(`reach fan-out of ${webhookId} for ${shop}`, () => runFanOut(shop, webhookId, admin));
}

/**
 * Once the current delivery is answered, resumes the shop's fan-outs that failed or whose run
 * died (their retry time or lease has passed); every webhook delivery for the shop is a chance.
 */
export function resumeFanOutsAfterAnswer(shop: string): void {
  runAfterAnswer(`reach fan-outs resumed for ${shop}`, async () => {
    await resumeDueFanOuts({ shopDomain: shop }, RESUMED_PER_DELIVERY);
  });
}

/**
 * Resumes up to `limit` due fan-outs (of one shop, or of all), oldest first, after dropping the
 * stale ones; answers how many it found due.
 */
async function resumeDueFanOuts(where: { shopDomain?: string }, limit: number): Promise<number> {
  const now = Date.now();
  await prisma.reachFanOut.deleteMany({ where: { ...where, createdAt: { lt: new Date(now - MAX_AGE_MS) } } });
  const due = await prisma.reachFanOut.findMany({
    where: { ...where, runAfter: { lte: new Date(now) } },
    select: { shopDomain: true, webhookId: true },
    orderBy: { createdAt: "asc" },
    take: limit,
  });
  for (const { shopDomain: shop, webhookId } of due) {
    // Another instance may take the same record: only the one whose lease write lands runs it.
    const taken = await prisma.reachFanOut.updateMany({
      where: { shopDomain: shop, webhookId, runAfter: { lte: new Date(now) } },
      data: { runAfter: new Date(Date.now() + LEASE_MS) },
    });
    if (taken.count === 1) await runFanOut(shop, webhookId, offlineAdminClient(shop));
  }
  return due.length;
}

/**
 * The fan-outs no delivery came to resume, on the app's job runner (decision 0028): a shop whose
 * webhooks stopped still has its customers told. A failed run stops the job's run (the record keeps
 * its retry time); the runner retries the job with backoff.
 */
export const fanOutResumeJob: JobDefinition = {
  name: "flow-fan-outs",
  intervalMs: RESUME_INTERVAL_MS,
  run: async () => ({ again: (await resumeDueFanOuts({}, RESUMED_PER_RUN)) === RESUMED_PER_RUN }),
};

interface Notification {
  position: Position;
  change: VariantChange;
  customerId: number;
}

/** Runs (or resumes) one recorded fan-out: deleted when done, else its position and retry time kept. */
async function runFanOut(shop: string, webhookId: string, admin: AdminGraphqlClient): Promise<void> {
  const where = { shopDomain_webhookId: { shopDomain: shop, webhookId } };
  const record = await prisma.reachFanOut.findUnique({ where });
  if (!record) return;
  const done: Position = { change: record.doneChange, customer: record.doneCustomer };
  let stoppedAt = done;
  try {
    const changes = record.changes as unknown as VariantChange[];
    const plan = await planNotifications(admin, record.productGid, changes, done);
    const productId = numericIdOf(record.productGid)!;
    // A workflow turned off since the change was recorded no longer wants to hear of it.
    const handles = [...new Set(changes.map((change) => change.trigger))];
    const inUse = await Promise.all(handles.map((handle) => flowTriggerInUse(shop, handle)));
    const listened = new Set(handles.filter((_, index) => inUse[index]));
    let claimed = done;
    for (const [index, entry] of plan.entries()) {
      if (!listened.has(entry.change.trigger)) continue;
      if (isAfter(entry.position, claimed)) {
        claimed = plan[Math.min(index + CLAIM_BLOCK, plan.length) - 1]!.position;
        // The claim renews the lease too, so a long run is not taken over while it is alive.
        await prisma.reachFanOut.update({
          where,
          data: {
            doneChange: claimed.change,
            doneCustomer: claimed.customer,
            runAfter: new Date(Date.now() + LEASE_MS),
          },
        });
      }
      try {
        await fireFlowTrigger(shop, admin, entry.change.trigger, {
          customer_id: entry.customerId,
          product_id: productId,
          "Variant ID": entry.change.variantGid,
          ...(entry.change.trigger === FLOW_TRIGGER_HANDLES.priceDropped
            ? { "Old price": entry.change.oldPrice, "New price": entry.change.newPrice }
            : {}),
          ...(entry.change.trigger === FLOW_TRIGGER_HANDLES.lowInStock
            ? { Inventory: entry.change.inventory, Threshold: entry.change.threshold }
            : {}),
        });
        stoppedAt = entry.position;
      } catch (error) {
        // Throttled requests did not run, so that customer was not told and is tried again; any
        // other failure may have reached Flow, so they count as told rather than risk a second time.
        if (!(error instanceof ServiceError && error.code === "RATE_LIMITED")) stoppedAt = entry.position;
        throw error;
      }
    }
    await prisma.reachFanOut.delete({ where });
  } catch (error) {
    await recordFailedRun(shop, webhookId, stoppedAt, record.attempts + 1);
    throw error;
  }
}

async function recordFailedRun(shop: string, webhookId: string, stoppedAt: Position, attempts: number) {
  const where = { shopDomain_webhookId: { shopDomain: shop, webhookId } };
  if (attempts >= MAX_ATTEMPTS) {
    writeLog("error", `[reach] fan-out of ${webhookId} for ${shop} dropped after ${attempts} failed runs`);
    await prisma.reachFanOut.deleteMany({ where: where.shopDomain_webhookId });
    return;
  }
  await prisma.reachFanOut.update({
    where,
    data: {
      doneChange: stoppedAt.change,
      doneCustomer: stoppedAt.customer,
      attempts,
      runAfter: new Date(Date.now() + RETRY_DELAY_MS),
    },
  });
}

/**
 * Who hears of what, in the fan-out's order, leaving out everyone up to `done`. One trigger per
 * customer, saved entity and change: a customer who saved the variant hears of that variant; one
 * who saved the product hears once per trigger, of its first changed variant; two lists holding the
 * same item are one customer. The savers are found again on each run, so the ones skipped as
 * already told still count for that rule.
 */
async function planNotifications(
  admin: AdminGraphqlClient,
  productGid: string,
  changes: readonly VariantChange[],
  done: Position,
): Promise<Notification[]> {
  const productSavers = await activeSavers(admin, productGid, MAX_SAVER_PAGES);
  const heard = new Set<string>();
  const plan: Notification[] = [];
  for (const [index, change] of changes.entries()) {
    const savers = [...new Set([...(await activeSavers(admin, change.variantGid, MAX_SAVER_PAGES)), ...productSavers])]
      .flatMap((gid) => {
        const id = numericIdOf(gid);
        return id === undefined ? [] : [{ gid, id }];
      })
      .sort((a, b) => a.id - b.id);
    for (const saver of savers) {
      const once = `${change.trigger}|${saver.gid}|${productSavers.has(saver.gid) ? productGid : change.variantGid}`;
      if (heard.has(once)) continue;
      heard.add(once);
      const position = { change: index, customer: BigInt(saver.id) };
      if (isAfter(position, done)) plan.push({ position, change, customerId: saver.id });
    }
  }
  return plan;
}
