/**
 * A wait on the global timer, which tests' fake timers control (node:timers/promises escapes
 * them). Not `clock.sleep`: tests replace that one to move the calendar, and a protocol's waits
 * (lock polls, permit renewals) must not move with it.
 */
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
