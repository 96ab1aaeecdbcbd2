import type { IncomingMessage } from "node:http";

/** Request bodies up to this size are held by the front, so a request an instance never read can go to another. */
export const HELD_BODY_BYTES = 1024 * 1024;

export interface HeldBody {
  body: Buffer;
  /** False when there is more than the limit; the rest is left unread. */
  complete: boolean;
}

/**
 * The body up to `limit` bytes, or undefined when the client went away first. Listeners rather
 * than `for await`: breaking out of that destroys the request and its socket, and a client gone
 * mid-body makes it throw where nothing may be waiting.
 */
export function holdBody(req: IncomingMessage, limit: number): Promise<HeldBody | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (outcome: HeldBody | undefined) => {
      req.off("data", onData).off("end", onEnd).off("close", onClose);
      resolve(outcome);
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size <= limit) return;
      req.pause();
      settle({ body: Buffer.concat(chunks), complete: false });
    };
    const onEnd = () => settle({ body: Buffer.concat(chunks), complete: true });
    // Before "end": the client went away mid-body.
    const onClose = () => settle(undefined);
    req.on("data", onData).once("end", onEnd).once("close", onClose);
  });
}
