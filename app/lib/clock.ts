/** The service's one source of "now", so tests can move across month boundaries. */
export const clock = {
  now: (): Date => new Date(),
};
