import { describe, expect, test } from "vitest";
import { permitUsable, permitUsableUntil, proposesReturn, renewalIntent } from "./coordination-mode";

const timing = { validityMs: 45_000, driftMarginMs: 1_000 };

describe("permits", () => {
  test("a permit is used until its validity, counted from the renewal's send, less the drift margin", () => {
    expect(permitUsableUntil(10_000, timing)).toBe(54_000);
  });

  test("usable only in mode redis, for the epoch known now, and while it outlasts a write sent now", () => {
    const permit = { epoch: 3, usableUntilMs: 50_000 };
    expect(permitUsable({ epoch: 3, mode: "redis" }, permit, 40_000, 6_000)).toBe(true);
    // A write sent now could land after the permit lets PostgreSQL locks in.
    expect(permitUsable({ epoch: 3, mode: "redis" }, permit, 44_000, 6_000)).toBe(false);
    expect(permitUsable({ epoch: 4, mode: "postgres" }, permit, 40_000, 6_000)).toBe(false);
    expect(permitUsable({ epoch: 5, mode: "redis" }, permit, 40_000, 6_000)).toBe(false);
    expect(permitUsable(undefined, permit, 40_000, 6_000)).toBe(false);
    expect(permitUsable({ epoch: 3, mode: "redis" }, undefined, 40_000, 6_000)).toBe(false);
  });

  test("a 30 s PostgreSQL outage leaves the permit usable: 45 s less the margins", () => {
    const permit = { epoch: 1, usableUntilMs: permitUsableUntil(0, timing) };
    expect(permitUsable({ epoch: 1, mode: "redis" }, permit, 30_000, 6_000)).toBe(true);
  });
});

describe("renewals", () => {
  test("an instance that believes the mode is redis asks for that epoch's permit", () => {
    expect(renewalIntent({ epoch: 1, mode: "redis" }, 0)).toEqual({ permitFor: 1, keepOldPermit: false });
    expect(renewalIntent(undefined, 0)).toEqual({ permitFor: undefined, keepOldPermit: false });
  });

  test("while Redis-locked work runs, the permit is kept, also by the renewal that first finds the mode moved", () => {
    expect(renewalIntent({ epoch: 1, mode: "redis" }, 2)).toEqual({ permitFor: 1, keepOldPermit: true });
    expect(renewalIntent({ epoch: 2, mode: "postgres" }, 1)).toEqual({ permitFor: undefined, keepOldPermit: true });
    expect(renewalIntent({ epoch: 2, mode: "postgres" }, 0)).toEqual({ permitFor: undefined, keepOldPermit: false });
  });

  test("only an instance in mode postgres that reaches Redis proposes the return", () => {
    expect(proposesReturn({ epoch: 2, mode: "postgres" }, true)).toBe(true);
    expect(proposesReturn({ epoch: 2, mode: "postgres" }, false)).toBe(false);
    expect(proposesReturn({ epoch: 3, mode: "redis" }, true)).toBe(false);
  });
});
