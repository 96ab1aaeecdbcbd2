// The app's JSON log lines (app/lib/json-log.ts) as a test reads them.
import { vi } from "vitest";
import type { LogLevel, LogLine } from "~/lib/json-log";

/** From now on, a reader of the lines logged at warn level whose text contains `text`. */
export function warningsContaining(text: string): () => string[] {
  const write = vi.spyOn(process.stdout, "write");
  return () =>
    write.mock.calls
      .map(([line]) => String(line))
      .filter((line) => line.includes('"level":"warn"') && line.includes(text));
}

/**
 * From now on, the lines the app logs, as objects, kept out of the test's output; `level` and a
 * part of the message (`text`) narrow them.
 */
export function loggedLines(): (filter?: { level?: LogLevel; text?: string }) => LogLine[] {
  const write = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
  const from = write.mock.calls.length;
  return ({ level, text } = {}) =>
    write.mock.calls
      .slice(from)
      .flatMap(([chunk]) => String(chunk).split("\n"))
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as LogLine)
      .filter((line) => (!level || line.level === level) && (!text || line.msg.includes(text)));
}
