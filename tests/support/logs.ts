// The app's JSON log lines (app/lib/json-log.ts) as a test reads them.
import { vi } from "vitest";

/** From now on, a reader of the lines logged at warn level whose text contains `text`. */
export function warningsContaining(text: string): () => string[] {
  const write = vi.spyOn(process.stdout, "write");
  return () =>
    write.mock.calls
      .map(([line]) => String(line))
      .filter((line) => line.includes('"level":"warn"') && line.includes(text));
}
