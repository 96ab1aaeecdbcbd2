// The per-operation runs of `npm run bench`: each operation in a closed loop against one app
// instance, the baseline doing the same signature check under the same load generator.
import type http from "node:http";
import { closedLoop, type LoadRequest } from "./load";
import { measureAlternating, measurePhase, type PhaseReport, type Target } from "./phase";
import { batchOfSaves, isSaved, list, product, write, type Shopper } from "./requests";
import type { MeasuredSandbox } from "./sandbox";

export const OPS_SHOP = "bench-ops.myshopify.com";

/**
 * Customers the load is spread over: each may send 30 at once and 2 a second after (the
 * per-customer rate limit), so one customer alone would measure the 429 path, not the operation;
 * 1,024 of them sustain 2,048 requests a second, more than an instance answers here.
 */
const CUSTOMERS = 1_024;
/** Turns of the is-saved comparison: each of the app and the baselines runs this many slices of the time. */
const COMPARISON_ROUNDS = 5;
const shopper = (index: number, offset = 200_000): Shopper => ({
  shop: OPS_SHOP,
  customer: String(offset + (index % CUSTOMERS)),
});

export interface OperationsOptions {
  sandbox: MeasuredSandbox;
  instance: { url: string; pid: number };
  baselines: readonly { kind: string; url: string; pid: number }[];
  agent: http.Agent;
  concurrency: number;
  seconds: number;
}

export async function measureOperations(options: OperationsOptions): Promise<PhaseReport[]> {
  const { sandbox, instance, baselines, agent, concurrency } = options;
  const durationMs = options.seconds * 1000;
  const app: Target = { pid: instance.pid, app: { sandbox, instanceUrl: instance.url, shop: OPS_SHOP } };
  const loop = (next: (index: number) => LoadRequest | undefined, limit = Infinity) =>
    closedLoop({
      agent,
      concurrency,
      // A run of a set number of requests (the warm-up) runs to its end.
      durationMs: limit === Infinity ? durationMs : 300_000,
      next: (index) => (index < limit ? next(index) : undefined),
    });

  // Not measured: every customer's first list (which asks the platform once and fills the list
  // state), then an is-saved each (answered from that state), and enough baseline requests to warm
  // its JIT alike. The list goes first and alone: a customer's is-saved sent beside their first list
  // read installs what it read first, so the list's install, on the version it looked at, is refused
  // (a reader cannot tell that change from a write's) and the list (cached) run paid every
  // customer's first read again, 0.28 platform requests a request.
  await loop((index) => list(instance.url, shopper(index)), CUSTOMERS);
  await loop((index) => isSaved(instance.url, shopper(index)), CUSTOMERS);
  for (const baseline of baselines) await loop((index) => isSaved(baseline.url, shopper(index)), 2 * CUSTOMERS);

  const reports: PhaseReport[] = [];
  const run = async (name: string, target: Target, next: (index: number) => LoadRequest | undefined) => {
    console.error(`measuring ${name}...`);
    reports.push(await measurePhase(name, target, () => loop(next)));
  };
  // The comparison the cost targets are stated against: the baselines and the app in turns.
  console.error(`measuring is-saved against the baselines, in ${COMPARISON_ROUNDS} rounds...`);
  const turn = (url: string) => () =>
    closedLoop({
      agent,
      concurrency,
      durationMs: durationMs / COMPARISON_ROUNDS,
      next: (index) => isSaved(url, shopper(index)),
    });
  reports.push(
    ...(await measureAlternating(
      [
        ...baselines.map((baseline) => ({
          name: `${baseline.kind} baseline`,
          target: { pid: baseline.pid },
          run: turn(baseline.url),
        })),
        { name: "is-saved", target: app, run: turn(instance.url) },
      ],
      COMPARISON_ROUNDS,
    )),
  );
  await run("list (cached)", app, (index) => list(instance.url, shopper(index)));
  // A first read: a customer the instance has never seen, so the list comes from the platform.
  await run("list (first read)", app, (index) =>
    list(instance.url, { shop: OPS_SHOP, customer: String(300_000 + index) }),
  );
  const saved: { shopper: Shopper; gid: string }[] = [];
  await run("save (new item)", app, (index) => {
    const item = { shopper: shopper(index), gid: product(1_000_000 + index) };
    saved.push(item);
    return write(instance.url, item.shopper, "save", item.gid);
  });
  await run("remove", app, (index) => {
    const item = saved[index];
    return item && write(instance.url, item.shopper, "remove", item.gid);
  });
  await run("toggle", app, (index) => write(instance.url, shopper(index), "toggle", product(index % 7), "toggle"));
  // Each batch by a shopper of its own, as the theme sends one when a guest's saves merge at login:
  // 256 shoppers sending a batch each several times a second measured their points share's 429s
  // (app/services/usage/platform-points.ts), not the operation.
  await run("batch (10 saves)", app, (index) => {
    const gids = Array.from({ length: 10 }, (_, k) => product(3_000_000 + index * 10 + k));
    return batchOfSaves(instance.url, { shop: OPS_SHOP, customer: String(400_000 + index) }, gids, "batch");
  });
  return reports;
}
