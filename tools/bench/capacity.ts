// The capacity lines of `npm run bench`: what a Standard-tier shop (bucket 2,000 points, restored
// at 100 a second) sustains with no shopper-facing 429, driven as shoppers arrive (an open loop).
import type http from "node:http";
import { closedLoop, openLoop, send, type LoadResult } from "./load";
import { batchOfSaves, list, product, write, type Shopper } from "./requests";
import { SAVED_BY_COUNT_DOCUMENTS } from "./saved-by";
import { usageDelta, type MeasuredSandbox } from "./sandbox";
import { fixed, formatAnswers, summarizeLoad } from "./stats";

export const STANDARD_SHOP = "bench-standard.myshopify.com";
const RESTORE_RATE = 100;

/**
 * A logged-in session as the theme script behaves (extensions/saved-items-theme-src): its first
 * page reads the list once (`list?limit=100`) and keeps it in localStorage for 10 minutes; the
 * other pages render from it and send nothing until the shopper acts.
 */
const PAGES_PER_SESSION = 20;
const SAVED_ITEMS = 10;
const PAGE_VIEW_STEPS = [25, 50, 100, 200, 400];
const SAVE_STEPS = [2, 5, 10, 20, 40];

export interface CapacityOptions {
  sandbox: MeasuredSandbox;
  instanceUrl: string;
  agent: http.Agent;
  seconds: number;
}

interface Step {
  rate: number;
  result: LoadResult;
  usage: ReturnType<typeof usageDelta>;
  /** What the saved-by flush (background work on the same shop's bucket) spent during the step. */
  savedBy: { requests: number; requestedPoints: number; actualPoints: number };
}

export async function measureCapacity(options: CapacityOptions): Promise<void> {
  const { sandbox, instanceUrl, agent, seconds } = options;
  const sessions = PAGE_VIEW_STEPS.reduce((sum, rate) => sum + Math.ceil((rate / PAGES_PER_SESSION) * seconds), 0);
  const shoppers = Array.from({ length: sessions }, (_, index) => ({
    shop: STANDARD_SHOP,
    customer: String(500_000 + index),
  }));
  await seedSavedItems(sandbox, instanceUrl, agent, shoppers);

  let next = 0;
  const views = await steps(sandbox, PAGE_VIEW_STEPS, seconds, (rate) =>
    openLoop({
      ratePerSecond: rate / PAGES_PER_SESSION,
      durationMs: seconds * 1000,
      start: async () => [await send(agent, list(instanceUrl, shoppers[next++]!))],
    }),
  );
  report("logged-in page views/s", views, PAGES_PER_SESSION, seconds);

  let saves = 0;
  const writes = await steps(sandbox, SAVE_STEPS, seconds, (rate) =>
    openLoop({
      ratePerSecond: rate,
      durationMs: seconds * 1000,
      // Each save by another shopper, of an item new to them: a read by handle, then the mutation.
      start: async () => {
        const index = saves++;
        const shopper = { shop: STANDARD_SHOP, customer: String(700_000 + index) };
        return [await send(agent, write(instanceUrl, shopper, "save", product(10_000 + index)))];
      },
    }),
  );
  report("saves/s", writes, 1, seconds);
}

/**
 * Not measured: every session's shopper gets 10 saved items, with the emulator's throttling off
 * so the setup does not spend the bucket the first step starts with (a full one).
 */
async function seedSavedItems(sandbox: MeasuredSandbox, instanceUrl: string, agent: http.Agent, shoppers: Shopper[]) {
  console.error(`seeding ${shoppers.length} shoppers with ${SAVED_ITEMS} saved items each...`);
  await sandbox.emulator.setThrottling(false);
  const gids = Array.from({ length: SAVED_ITEMS }, (_, k) => product(k + 1));
  const seed = (who: Shopper[]) =>
    closedLoop({
      agent,
      concurrency: 8,
      durationMs: 600_000,
      next: (index) => (index < who.length ? batchOfSaves(instanceUrl, who[index]!, gids) : undefined),
    });
  const failures = (result: LoadResult) => result.outcomes.filter((outcome) => outcome.status !== 200).length;
  // Once more when a batch failed (a retryable error on a busy machine): saving a saved item again
  // changes nothing, and its batch answers 200.
  let result = await seed(shoppers);
  if (failures(result) > 0) result = await seed(shoppers);
  await sandbox.emulator.setThrottling(true);
  const failed = failures(result);
  if (failed > 0)
    throw new Error(`seeding failed for ${failed} shoppers: ${formatAnswers(summarizeLoad(result).answers)}`);
}

/**
 * The shop's requests the emulator's log holds, oldest first. The log keeps the last 10,000 of all
 * shops; the capacity phase sends fewer, so a step's requests are those appended during it.
 */
const shopRequests = (sandbox: MeasuredSandbox) => sandbox.emulator.requests({ shop: STANDARD_SHOP, limit: 10_000 });

/** Runs each rate in turn, each for the same time, until one sees an answer other than 200. */
async function steps(
  sandbox: MeasuredSandbox,
  rates: number[],
  seconds: number,
  run: (rate: number) => Promise<LoadResult>,
) {
  const done: Step[] = [];
  for (const rate of rates) {
    console.error(`capacity step: ${rate}/s for ${seconds} s...`);
    const before = await sandbox.usage(STANDARD_SHOP);
    const logged = (await shopRequests(sandbox)).length;
    const result = await run(rate);
    const usage = usageDelta(before, await sandbox.usage(STANDARD_SHOP));
    // The seeded shoppers' saves left the popular products dirty: the flush's counts run during the steps.
    const counting = (await shopRequests(sandbox))
      .slice(logged)
      .filter((request) => SAVED_BY_COUNT_DOCUMENTS.test(request.query ?? ""));
    const savedBy = {
      requests: counting.length,
      requestedPoints: counting.reduce((sum, request) => sum + (request.points?.requested ?? 0), 0),
      actualPoints: counting.reduce((sum, request) => sum + (request.points?.actual ?? 0), 0),
    };
    done.push({ rate, result, usage, savedBy });
    if (result.outcomes.some((outcome) => outcome.status !== 200)) break;
  }
  return done;
}

function report(what: string, done: Step[], unitsPerRequest: number, seconds: number) {
  console.log(
    `\n${what}, Standard shop, steps of ${seconds} s; the bucket (2,000 points, +${RESTORE_RATE}/s) full at the first, each later step starting with what the one before left:`,
  );
  for (const { rate, result, usage, savedBy } of done) {
    const summary = summarizeLoad(result);
    const units = summary.requests * unitsPerRequest;
    console.log(
      `  ${String(rate).padStart(4)}/s: ${summary.requests} proxy requests, p50 ${fixed(summary.p50)} ms, p99 ${fixed(summary.p99)} ms, ` +
        `platform ${fixed((usage.requests - savedBy.requests) / units, 3)} req and ${fixed((usage.requestedPoints - savedBy.requestedPoints) / units, 2)} requested / ${fixed((usage.actualPoints - savedBy.actualPoints) / units, 2)} actual points per ${unitsPerRequest > 1 ? "page view" : "save"}, ` +
        `throttled ${usage.throttled}; answers ${formatAnswers(summary.answers)}; ` +
        `the saved-by flush meanwhile ${savedBy.requests} req, ${savedBy.actualPoints} actual points ` +
        `(with it ${fixed(usage.requests / units, 3)} req per ${unitsPerRequest > 1 ? "page view" : "save"})`,
    );
  }
  const clean = done.filter(({ result }) => result.outcomes.every((outcome) => outcome.status === 200));
  const best = clean.at(-1);
  const actual = clean.reduce((sum, step) => sum + step.usage.actualPoints - step.savedBy.actualPoints, 0);
  const units = clean.reduce((sum, step) => sum + step.result.outcomes.length * unitsPerRequest, 0);
  const sustained = actual > 0 ? (RESTORE_RATE * units) / actual : Infinity;
  console.log(
    `  capacity: ${best ? `${best.rate}/s measured with zero 429s` : "no step without a 429"}` +
      (done.length > clean.length ? ` (${done.at(-1)!.rate}/s was not)` : ` (the highest step tried)`) +
      `; ${Number.isFinite(sustained) ? fixed(sustained, 0) : "unbounded"}/s sustained indefinitely by the restore rate ` +
      `(${RESTORE_RATE} points/s ÷ ${fixed(actual / units, 2)} actual points each; a step shorter than the bucket lasts can exceed it)`,
  );
}
