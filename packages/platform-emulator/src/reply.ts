/** What a route answers, before it becomes an msw Response. */
export type Reply =
  | { status: number; body: unknown; headers?: Record<string, string>; text?: false }
  /** A body sent as it is (the JSONL of a bulk operation), not as JSON. */
  | { status: number; body: string; headers: Record<string, string>; text: true }
  | "network-error";

export function jsonReply(status: number, body: unknown, headers?: Record<string, string>): Reply {
  return { status, body, headers };
}

export const NOT_FOUND: Reply = jsonReply(404, { errors: "Not Found" });

export function textReply(status: number, body: string, contentType: string): Reply {
  return { status, body, headers: { "Content-Type": contentType }, text: true };
}
