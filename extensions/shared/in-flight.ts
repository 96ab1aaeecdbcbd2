// The service calls the extensions' views have started and that have not settled yet. A view starts
// them from effects and never awaits them where a caller could; the tests await callsSettled()
// instead of waiting some time and hoping a call would have been made by then.
const calls = new Set<Promise<unknown>>();

/** The client's methods, each call counted in flight until it settles. */
export function trackedCalls<T extends object>(client: T): T {
  return Object.fromEntries(
    Object.entries(client).map(([name, method]) => [
      name,
      (...args: unknown[]) => {
        const call = Promise.resolve((method as (...args: unknown[]) => unknown)(...args));
        calls.add(call);
        void call.catch(() => {}).finally(() => calls.delete(call));
        return call;
      },
    ]),
  ) as T;
}

/** Resolves once no call is in flight, calls started by settling ones included. */
export async function callsSettled(): Promise<void> {
  while (calls.size > 0) await Promise.allSettled([...calls]);
}
