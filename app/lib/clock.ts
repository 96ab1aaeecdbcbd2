/**
 * The service's calendar and its deliberate waits: budget months and saved_at, so tests can move
 * across month boundaries, and pauses such as a background job pacing itself on the platform's
 * bucket, so tests can pass them by moving the calendar instead of sleeping. Protocols whose other
 * side stamps real time (proxy signatures, token expiry) use the real time.
 */
export const clock = {
  now: (): Date => new Date(),
  sleep: (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms)),
};
