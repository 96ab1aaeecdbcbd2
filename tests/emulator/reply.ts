/** What a route answers, before it becomes an msw Response. */
export type Reply = { status: number; body: unknown; headers?: Record<string, string> } | "network-error";

export function jsonReply(status: number, body: unknown, headers?: Record<string, string>): Reply {
  return { status, body, headers };
}

export const NOT_FOUND: Reply = jsonReply(404, { errors: "Not Found" });
