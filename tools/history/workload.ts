// The clients of a history run: shoppers acting as the same customer from two or three places at
// once (a theme tab through the app proxy, a headless backend, a customer-account extension), each
// waiting for its answer before its next call, every call recorded with when it was invoked and
// answered on this process's monotonic clock.
import type http from "node:http";
import {
  customerAccountCaller,
  headlessCaller,
  proxyCaller,
  type Call,
  type Caller,
  type OperationName,
} from "../bench/channels";
import { sendReading } from "../bench/load";
import { isListKind, type Operation, type OperationKind } from "./history";

export interface WorkloadOptions {
  /** The sandbox's front, which spreads calls over the instances. */
  baseUrl: string;
  agent: http.Agent;
  shop: string;
  /** Numeric customer ids; each has the customer-account access token `historyCustomerToken(id)` in the seed. */
  customers: readonly string[];
  items: readonly string[];
  clients: number;
  durationMs: number;
  /** Calls a client aims at per second (it waits out the rest of each call's share). */
  clientRate: number;
  /** How long the clients of a group stay on one of their customers: a shopper's session. */
  sessionMs: number;
  timeoutMs: number;
  seed: number;
}

export interface ExchangeAttempt {
  at: number;
  channel: string;
  status: number;
  code?: string;
}

export interface Recorder {
  operations: Operation[];
  exchanges: ExchangeAttempt[];
}

export const CHANNELS = ["proxy", "headless", "customer-account"] as const;
export const historyCustomerToken = (customer: string) => `history-cat-${customer}`;
export const listKey = (shop: string, customer: string) => `${shop}/${customer}/wishlist`;

/** A storefront's mix: mostly reads (hearts, the saved-items block), some clicks, now and then the list manager. */
const MIX: [OperationKind, number][] = [
  ["is-saved", 0.27],
  ["list", 0.22],
  ["save", 0.16],
  ["remove", 0.11],
  ["toggle", 0.14],
  ["create-list", 0.03],
  ["delete-list", 0.02],
  ["share-create", 0.02],
  ["share-revoke", 0.01],
  ["shared-list", 0.02],
];
/** The name create-list gives the wishlist: always the same, so a repeat is the same request. */
const LIST_NAME = "Wishlist";

/** Small and seedable, so a run's choices repeat with its --seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

/**
 * Clients are split into groups of two or three (client c in group c mod groups, the k-th member
 * on channel k mod 3); each group shares a slice of the customers and, for a session at a time,
 * all its clients act as the same one of them, so their calls overlap on the same items. A
 * customer is busy one session in (customers per group): its per-customer bucket (30, then 2 a
 * second) refills in between.
 */
export function groupsFor(clients: number): number {
  return Math.max(1, Math.ceil(clients / 3));
}

export async function runClients(options: WorkloadOptions, recorder: Recorder): Promise<void> {
  const groups = groupsFor(options.clients);
  const callers = new Map<string, Caller>();
  const callerFor = (channel: (typeof CHANNELS)[number], customer: string): Caller => {
    const key = `${channel} ${customer}`;
    let caller = callers.get(key);
    if (!caller) {
      caller =
        channel === "proxy"
          ? proxyCaller(options.shop, customer)
          : channel === "headless"
            ? headlessCaller(options.agent, options.shop, historyCustomerToken(customer))
            : customerAccountCaller(options.agent, options.shop, `gid://shopify/Customer/${customer}`);
      callers.set(key, caller);
    }
    return caller;
  };
  const started = performance.now();
  const deadline = started + options.durationMs;
  // The last link a share-create answered for each customer's wishlist, which shared-list opens.
  const tokens = new Map<string, string>();

  const client = async (index: number) => {
    const random = seededRandom(options.seed * 1_000 + index + 1);
    const group = index % groups;
    const channel = CHANNELS[Math.floor(index / groups) % CHANNELS.length]!;
    const own = options.customers.filter((_, customer) => customer % groups === group);
    const interval = 1_000 / options.clientRate;
    while (performance.now() < deadline) {
      const session = Math.floor((performance.now() - started) / options.sessionMs);
      const customer = own[session % own.length]!;
      const picked = pick(random);
      // A customer no link was made for yet gets one.
      const kind = picked === "shared-list" && !tokens.has(customer) ? "share-create" : picked;
      const item = options.items[Math.floor(random() * options.items.length)]!;
      const begun = performance.now();
      const operation = await callOnce(options, recorder, {
        client: index,
        channel,
        caller: callerFor(channel, customer),
        customer,
        kind,
        ...(kind === "list" || isListKind(kind) ? {} : { item }),
        ...(kind === "shared-list" ? { token: tokens.get(customer)! } : {}),
      });
      if (operation?.kind === "share-create" && operation.token) tokens.set(customer, operation.token);
      // Uneven pauses, so the clients of a group drift against each other.
      const pause = interval * (0.5 + random()) - (performance.now() - begun);
      if (pause > 0) await new Promise((resolve) => setTimeout(resolve, pause));
    }
  };
  await Promise.all(Array.from({ length: options.clients }, (_, index) => client(index)));
}

/** After the faults: one list of each customer through the proxy, each answer a last read of every item. */
export async function readEveryList(options: WorkloadOptions, recorder: Recorder): Promise<void> {
  const queue = [...options.customers];
  const reader = async () => {
    for (let customer = queue.shift(); customer !== undefined; customer = queue.shift()) {
      const caller = proxyCaller(options.shop, customer);
      await callOnce(options, recorder, { client: options.clients, channel: "proxy", caller, customer, kind: "list" });
    }
  };
  await Promise.all(Array.from({ length: 4 }, reader));
}

/** What a list operation sends: the wishlist, its name, the link's token. */
function listInput(kind: OperationKind, token: string | undefined): Record<string, string> {
  if (kind === "shared-list") return { token: token! };
  return kind === "create-list" ? { context: "wishlist", name: LIST_NAME } : { context: "wishlist" };
}

async function callOnce(
  options: WorkloadOptions,
  recorder: Recorder,
  call: {
    client: number;
    channel: string;
    caller: Caller;
    customer: string;
    kind: OperationKind;
    item?: string;
    token?: string;
  },
): Promise<Operation | undefined> {
  const { kind } = call;
  const sent: Call = isListKind(kind)
    ? { operation: kind, input: listInput(kind, call.token) }
    : { operation: kind as OperationName, entityGids: call.item ? [call.item] : [] };
  const { request, exchange } = await call.caller.request(options.baseUrl, sent);
  if (exchange) recorder.exchanges.push({ at: performance.now(), channel: call.channel, ...exchange });
  if (!request) return undefined;
  request.timeoutMs = options.timeoutMs;
  // The direct channels' list reads 20 by default; the theme's (the proxy's) reads 100.
  if (call.kind === "list" && call.channel !== "proxy") request.url.searchParams.set("limit", "100");
  const operation: Operation = {
    id: recorder.operations.length,
    client: call.client,
    channel: call.channel,
    list: listKey(options.shop, call.customer),
    kind: call.kind,
    invokedAt: performance.now(),
    status: 0,
  };
  if (call.item) operation.item = call.item;
  if (call.token) operation.token = call.token;
  recorder.operations.push(operation);
  const { outcome, text } = await sendReading(options.agent, request);
  if (outcome.status === 0) {
    operation.code = outcome.code;
    return operation;
  }
  operation.completedAt = performance.now();
  operation.status = outcome.status;
  if (outcome.code) operation.code = outcome.code;
  if (outcome.status !== 200) return operation;
  try {
    readAnswer(operation, JSON.parse(text).data);
  } catch {
    // A 200 that is not the envelope the contract promises: counted, and a write's outcome unknown.
    Object.assign(operation, { status: 0, code: "MALFORMED_200" });
  }
  return operation;
}

function readAnswer(operation: Operation, data: Record<string, unknown>): void {
  if (operation.kind === "is-saved") {
    if (typeof data.saved !== "boolean") throw new Error("no saved");
    operation.saved = data.saved;
  } else if (operation.kind === "share-create") {
    if (typeof data.token !== "string") throw new Error("no token");
    operation.token = data.token;
  } else if (operation.kind === "share-revoke") {
    if (typeof data.revoked !== "boolean") throw new Error("no revoked");
    operation.revoked = data.revoked;
  } else if (isListKind(operation.kind)) {
    // create-list, delete-list and an opened link: the 200 is the answer.
  } else if (operation.kind === "list") {
    const { items, pageInfo } = data as { items: { entityGid: string }[]; pageInfo: { hasNextPage: boolean } };
    if (!Array.isArray(items) || pageInfo.hasNextPage) throw new Error("not one whole page");
    operation.listed = items.map((item) => item.entityGid);
  } else {
    if (data.state !== "active" && data.state !== "removed") throw new Error("no state");
    operation.state = data.state;
  }
}

function pick(random: () => number): OperationKind {
  let left = random();
  for (const [kind, share] of MIX) if ((left -= share) < 0) return kind;
  return MIX.at(-1)![0];
}
