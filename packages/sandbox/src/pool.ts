import { setTimeout as sleep } from "node:timers/promises";
import type { AppInstance, InstanceReport } from "./front";
import { startAppInstance, type InstanceExit, type RunningInstance } from "./instances";

/** An instance that ran this long before it exited was not crash-looping: it is started again at once. */
const STABLE_MS = 30_000;
/** Between starts of an instance that keeps exiting soon after starting: doubled each time, up to the maximum. */
const FIRST_BACKOFF_MS = 1_000;
const MAX_BACKOFF_MS = 30_000;

export interface InstancePool {
  /** What the front sends requests to: one entry per instance, replaced when its instance is. */
  targets: AppInstance[];
  report(): InstanceReport[];
  /** Replaces each instance in turn with a fresh one, as a deploy does. */
  rollingRestart(): Promise<void>;
  /** Stops every instance; none is started again once `shutdown` is aborted. */
  stop(): Promise<void>;
}

interface Slot {
  index: number;
  running: RunningInstance;
  startedAtMs: number;
  /** Exits (or failed starts) in a row that came soon after a start. */
  quickExits: number;
  /** The replacement or restart under way: one at a time per instance. Never rejects. */
  busy: Promise<void>;
}

/**
 * The app instances: started one after the other, and each started again, on its port if that is
 * still free, when it exits unless the sandbox is shutting down or replacing it. An instance that
 * keeps exiting right after it starts is started again less and less often.
 */
export async function startInstancePool(
  count: number,
  env: Record<string, string>,
  shutdown: AbortSignal,
): Promise<InstancePool> {
  const prefixed = count > 1;
  const slots: Slot[] = [];
  const targets: AppInstance[] = [];
  for (let index = 1; index <= count; index++) {
    const running = await startAppInstance(index, env, prefixed);
    slots.push({ index, running, startedAtMs: Date.now(), quickExits: 0, busy: Promise.resolve() });
    targets.push(targetOf(index, running));
  }

  function supervise(slot: Slot): void {
    const { running } = slot;
    void running.crashed.then((exit) => {
      if (shutdown.aborted || slot.running !== running) return;
      const target = targets[slot.index - 1]!;
      target.accepting = false;
      target.healthy = false;
      slot.quickExits = Date.now() - slot.startedAtMs < STABLE_MS ? slot.quickExits + 1 : 0;
      console.error(
        `[sandbox] instance ${slot.index} (pid ${running.pid}) exited (${describeExit(exit)}); starting it again`,
      );
      slot.busy = slot.busy.then(async () => {
        if (slot.running !== running) return;
        if (await bringUp(slot, running.port))
          console.log(`[sandbox] instance ${slot.index} is back (pid ${slot.running.pid})`);
      });
    });
  }

  /** Starts the slot's next instance, retrying with backoff; false when the sandbox began shutting down first. */
  async function bringUp(slot: Slot, preferredPort?: number): Promise<boolean> {
    for (;;) {
      const delayMs =
        slot.quickExits <= 1 ? 0 : Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** (slot.quickExits - 2));
      if (delayMs > 0) {
        console.error(`[sandbox] instance ${slot.index} keeps exiting; starting it again in ${delayMs} ms`);
        await sleep(delayMs, undefined, { signal: shutdown }).catch(() => undefined);
      }
      if (shutdown.aborted) return false;
      try {
        slot.running = await startAppInstance(slot.index, env, prefixed, preferredPort);
      } catch (error) {
        console.error(
          `[sandbox] instance ${slot.index} did not start:`,
          error instanceof Error ? error.message : error,
        );
        slot.quickExits++;
        continue;
      }
      slot.startedAtMs = Date.now();
      targets[slot.index - 1] = targetOf(slot.index, slot.running);
      supervise(slot);
      return true;
    }
  }

  for (const slot of slots) supervise(slot);
  return {
    targets,
    report: () =>
      slots.map((slot) => {
        const target = targets[slot.index - 1]!;
        return {
          index: slot.index,
          url: slot.running.url,
          pid: slot.running.pid,
          accepting: target.accepting,
          healthy: target.healthy,
        };
      }),
    async rollingRestart() {
      for (const slot of slots) {
        slot.busy = slot.busy.then(async () => {
          if (shutdown.aborted) return;
          // Out of the rotation first, so nothing new reaches it; it finishes what it has, then a fresh one takes its place.
          targets[slot.index - 1]!.accepting = false;
          await slot.running.stop();
          await bringUp(slot);
        });
        await slot.busy;
      }
    },
    async stop() {
      await Promise.all(slots.map((slot) => slot.busy));
      await Promise.all(slots.map((slot) => slot.running.stop()));
    },
  };
}

function targetOf(index: number, running: RunningInstance): AppInstance {
  return { index, url: running.url, accepting: true, healthy: true };
}

function describeExit(exit: InstanceExit): string {
  return exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`;
}
