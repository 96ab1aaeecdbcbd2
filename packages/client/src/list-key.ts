/**
 * create-list without a context makes the service pick a new key on every attempt, so a retry
 * after an answer that got lost would make a second list. The client picks the key once per call
 * instead, in the service's own format: every retry repeats it, and the service answers a repeated
 * create (same key and name) with the list the first attempt made.
 */
export function withListKey(operation: string, input: unknown): unknown {
  if (operation !== "create-list" || typeof input !== "object" || input === null) return input;
  if ((input as { context?: unknown }).context !== undefined) return input;
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return { ...input, context: `list-${Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("")}` };
}
