import type { FetchLike } from "../../../extensions/shared/envelope";
import type { ListResult } from "../../../extensions/shared/wire";

/** A clock the test moves: sleep() records the wait and advances time at once. */
export class FakeClock {
  time = Date.parse("2026-07-01T12:00:00Z");
  readonly sleeps: number[] = [];
  now = () => this.time;
  sleep = async (ms: number) => {
    this.sleeps.push(ms);
    this.time += ms;
  };
  advance(ms: number) {
    this.time += ms;
  }
}

export interface RecordedRequest {
  url: URL;
  method: string;
  headers: Headers;
  body: unknown;
}

type Answer = Response | Error | ((request: RecordedRequest) => Response | Error | Promise<Response | Error>);

export const APP = "https://saved-items.example";

/**
 * A scripted service: answers per path from a queue (the last answer repeats), records every
 * request. No network: anything unscripted fails the test.
 */
export class FakeService {
  readonly requests: RecordedRequest[] = [];
  private readonly scripts = new Map<string, Answer[]>();

  on(path: string, ...answers: Answer[]): this {
    this.scripts.set(path, [...(this.scripts.get(path) ?? []), ...answers]);
    return this;
  }

  /** Replaces what a path answers from now on. */
  reset(path: string, ...answers: Answer[]): this {
    this.scripts.set(path, answers);
    return this;
  }

  fetch: FetchLike = async (input, init) => {
    const url = new URL(input);
    const request: RecordedRequest = {
      url,
      method: init.method ?? "GET",
      headers: new Headers(init.headers),
      body: typeof init.body === "string" ? JSON.parse(init.body) : undefined,
    };
    this.requests.push(request);
    const queue = this.scripts.get(url.pathname);
    if (!queue?.length) throw new Error(`unscripted request ${request.method} ${url.pathname}`);
    const next = queue.length > 1 ? queue.shift()! : queue[0]!;
    const answer = typeof next === "function" ? await next(request) : next;
    if (answer instanceof Error) throw answer;
    return answer.clone();
  };

  to(path: string): RecordedRequest[] {
    return this.requests.filter((request) => request.url.pathname === path);
  }
}

export const EXCHANGE = "/api/customer-account/auth/exchange";
export const LIST = "/api/customer-account/list";
export const REMOVE = "/api/customer-account/remove";
export const SHARE_CREATE = "/api/customer-account/share-create";
export const SHARE_REVOKE = "/api/customer-account/share-revoke";
export const LISTS = "/api/customer-account/lists";
export const CREATE_LIST = "/api/customer-account/create-list";
export const RENAME_LIST = "/api/customer-account/rename-list";
export const DELETE_LIST = "/api/customer-account/delete-list";

export function ok(data: unknown): Response {
  return new Response(JSON.stringify({ ok: true, data }), {
    status: 200,
    headers: { "Content-Type": "application/json" },
  });
}

export function fail(status: number, code: string, retryable = false): Response {
  return new Response(JSON.stringify({ ok: false, error: { code, message: `${code} happened`, retryable } }), {
    status,
    headers: { "Content-Type": "application/json" },
  });
}

let minted = 0;

/** An exchange answer as the service gives it: a fresh token valid `seconds` from `issuedAt`. */
export function grant(issuedAt: number, seconds = 300, expiresAtSkewMs = 0): Response {
  minted += 1;
  return ok({
    authorization: `Bearer service-token-${minted}`,
    tokenType: "Bearer",
    expiresInSeconds: seconds,
    expiresAt: new Date(issuedAt + seconds * 1000 + expiresAtSkewMs).toISOString(),
    channel: "customer-account",
    shop: "demo.myshopify.com",
  });
}

export function page(
  ids: string[],
  hasNextPage = false,
  endCursor: string | null = ids.length ? `after-${ids.at(-1)}` : null,
): ListResult {
  return {
    items: ids.map((id) => ({
      id,
      entityType: "product",
      entityGid: `gid://shopify/Product/${id}`,
      status: "active",
    })),
    pageInfo: { hasNextPage, endCursor },
  };
}

/** A promise with its resolve/reject in hand, to hold an answer back. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
