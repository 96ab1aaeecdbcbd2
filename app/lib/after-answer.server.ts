import { errorFields, writeLog } from "~/lib/json-log";
import { withoutPayer } from "./request-context.server";

/**
 * Work that must not delay an answer (a webhook's fan-out, a Flow trigger after a save): started
 * once the current request has answered, its failure logged and never thrown at the caller, its
 * platform points not the caller's (withoutPayer). Tracked so tests and a stopping server can
 * wait for it.
 */
const running = new Set<Promise<void>>();

export function runAfterAnswer(label: string, work: () => Promise<void>): void {
  const task: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
    .then(() => withoutPayer(work))
    .catch((error: unknown) => writeLog("error", `[after-answer] ${label} failed`, { error: errorFields(error) }))
    .finally(() => running.delete(task));
  running.add(task);
}

/** Resolves when every piece of work started so far (and any it started) has ended. */
export async function afterAnswerSettled(): Promise<void> {
  while (running.size > 0) await Promise.all([...running]);
}
