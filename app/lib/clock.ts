/**
 * The service's calendar: budget months and saved_at, so tests can move across month boundaries.
 * Protocols whose other side stamps real time (proxy signatures, token expiry) use the real time.
 */
export const clock = {
  now: (): Date => new Date(),
};
