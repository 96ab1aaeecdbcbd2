import { errorFields, writeLog } from "~/lib/json-log";
/**
 * A piece of work every instance runs at start-up and then on an interval, with no cron: the work
 * itself makes sure each unit runs once across instances (claims, the shop's lock). A sweep still
 * running (a slow platform) is not overtaken by the next, and stopping waits for it, so its writes
 * end before connections close.
 */
export function periodicSweep(name: string, intervalMs: number, run: () => Promise<unknown>) {
  let timer: NodeJS.Timeout | undefined;
  let sweeping: Promise<void> | undefined;

  function sweep(): void {
    sweeping ??= run()
      .then(() => undefined)
      .catch((error: unknown) => writeLog("error", `[${name}] sweep failed`, { error: errorFields(error) }))
      .finally(() => (sweeping = undefined));
  }

  return {
    start: (): void => {
      if (timer) return;
      sweep();
      timer = setInterval(sweep, intervalMs);
      timer.unref();
    },
    stop: async (): Promise<void> => {
      clearInterval(timer);
      timer = undefined;
      await sweeping;
    },
  };
}
