import type { Redis } from "ioredis";

/** Releases of one lock, as heard by this process, for a waiter to sleep on instead of polling. */
export interface ReleaseWatch {
  readonly channel: string;
  /**
   * How many releases have been heard since the watch began. A waiter reads it before trying
   * the lock: if it moved by the time the attempt failed, the release came in between, and the
   * waiter tries again rather than sleeping through it.
   */
  readonly heard: number;
  /** Resolves at the next release heard, or after ms, whichever is first. */
  next(ms: number): Promise<void>;
  close(): void;
}

interface Channel {
  watchers: number;
  heard: number;
  wakers: Set<() => void>;
  subscribed: Promise<void>;
}

/**
 * One subscription per lock that someone in this process waits for, shared by its waiters.
 * A notice can be missed (the subscription failed or the connection dropped), and a holder that
 * crashed sends none, so waiters also wake on a timer: notices make handoffs prompt, the timer
 * makes them certain.
 */
export function createReleaseNotices(subscriber: Redis) {
  const channels = new Map<string, Channel>();

  subscriber.on("message", (name: string) => {
    const channel = channels.get(name);
    if (!channel) return;
    channel.heard++;
    for (const wake of channel.wakers) wake();
  });

  return {
    /** Resolves once the subscription is live (or has failed, leaving the waiter to its timer). */
    async watch(name: string): Promise<ReleaseWatch> {
      let channel = channels.get(name);
      if (!channel) {
        channel = {
          watchers: 0,
          heard: 0,
          wakers: new Set(),
          subscribed: subscriber.subscribe(name).then(
            () => undefined,
            () => undefined,
          ),
        };
        channels.set(name, channel);
      }
      const current = channel;
      current.watchers++;
      await current.subscribed;
      let closed = false;
      return {
        channel: name,
        get heard() {
          return current.heard;
        },
        next(ms) {
          return new Promise<void>((resolve) => {
            const wake = () => {
              clearTimeout(timer);
              current.wakers.delete(wake);
              resolve();
            };
            const timer = setTimeout(wake, ms);
            current.wakers.add(wake);
          });
        },
        close() {
          if (closed) return;
          closed = true;
          if (--current.watchers > 0) return;
          channels.delete(name);
          subscriber.unsubscribe(name).catch(() => {});
        },
      };
    },
  };
}
