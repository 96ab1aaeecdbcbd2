import { createHash } from "node:crypto";

/**
 * The seed every fuzz run starts from; FUZZ_SEED=<n> replays (or varies) a run. Each test derives
 * its own stream from it and its name, so one test's cases do not depend on which others ran.
 */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20_260_801);

export interface Random {
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
  bytes(length: number): Uint8Array<ArrayBuffer>;
  /** `length` characters drawn from `alphabet` (a string or a list of strings). */
  text(length: number, alphabet: string | readonly string[]): string;
}

/** mulberry32: small, fast and good enough to spread inputs; not for anything secret. */
export function seededRandom(name: string, seed = FUZZ_SEED): Random {
  let state = (createHash("sha256").update(`${seed}:${name}`).digest().readUInt32LE(0) ^ seed) >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[int(0, items.length - 1)]!;
  return {
    int,
    chance: (probability) => next() < probability,
    pick,
    bytes: (length) => Uint8Array.from({ length }, () => int(0, 255)),
    text: (length, alphabet) => {
      const characters = [...alphabet];
      return Array.from({ length }, () => pick(characters)).join("");
    },
  };
}
