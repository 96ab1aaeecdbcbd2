import { Prisma } from "@prisma/client";
import { decodeJwt, decodeProtectedHeader } from "jose";
import { afterEach, describe, expect, test, vi } from "vitest";
import {
  DIRECT_ACCESS_TOKEN_TTL_SECONDS,
  mintDirectAccessToken,
  verifyDirectAccessToken,
} from "~/services/direct-access/direct-token.server";
import db from "~/db.server";
import { clock } from "~/lib/clock";
import { ServiceError } from "~/lib/errors";
import { CUSTOMER } from "../support/direct";
import { DEMO_SHOP } from "../support/app";

afterEach(() => vi.restoreAllMocks());

const subject = { shop: DEMO_SHOP, customerGid: CUSTOMER.id, channel: "customer-account" as const };

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return error instanceof ServiceError ? error.code : `not a ServiceError: ${String(error)}`;
  }
}

describe("§2.5 / §5.2 the service JWT", () => {
  test("is HS256 with exactly sub, shop, channel, iat, exp = iat + 300 and jti", async () => {
    vi.spyOn(clock, "now").mockReturnValue(new Date("2026-11-05T10:00:00.400Z"));
    const { token, claims, expiresAt } = await mintDirectAccessToken(subject);
    expect(decodeProtectedHeader(token)).toEqual({ alg: "HS256", typ: "JWT" });
    const iat = Date.parse("2026-11-05T10:00:00Z") / 1000;
    expect(decodeJwt(token)).toEqual({
      sub: CUSTOMER.id,
      shop: DEMO_SHOP,
      channel: "customer-account",
      iat,
      exp: iat + 300,
      jti: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
    });
    expect(claims).toEqual(decodeJwt(token));
    expect(expiresAt.toISOString()).toBe("2026-11-05T10:05:00.000Z");
    expect(DIRECT_ACCESS_TOKEN_TTL_SECONDS).toBe(300);
  });

  test("verifies to its claims, for the expected channel or without one", async () => {
    const { token, claims } = await mintDirectAccessToken(subject);
    expect(await verifyDirectAccessToken(token, "customer-account")).toEqual(claims);
    expect(await verifyDirectAccessToken(token)).toEqual(claims);
    expect(await codeOf(verifyDirectAccessToken(token, "headless"))).toBe("CHANNEL_MISMATCH");
  });

  test("expires after 300 s plus at most 5 s of skew; an expired token of the other channel is still TOKEN_EXPIRED", async () => {
    const mintedAt = new Date("2026-11-05T10:00:00Z");
    vi.spyOn(clock, "now").mockReturnValue(mintedAt);
    const { token } = await mintDirectAccessToken(subject);
    const at = (seconds: number) =>
      vi.spyOn(clock, "now").mockReturnValue(new Date(mintedAt.getTime() + seconds * 1000));
    at(304);
    expect(await codeOf(verifyDirectAccessToken(token, "customer-account"))).toBeUndefined();
    at(306);
    expect(await codeOf(verifyDirectAccessToken(token, "customer-account"))).toBe("TOKEN_EXPIRED");
    expect(await codeOf(verifyDirectAccessToken(token, "headless"))).toBe("TOKEN_EXPIRED");
    // A token from the future (a clock far ahead on the minting side) is refused, not trusted.
    at(-60);
    expect(await codeOf(verifyDirectAccessToken(token))).toBe("INVALID_TOKEN");
  });

  test("no storage of any kind: minting writes no row anywhere, and the token verifies with every table emptied", async () => {
    const rowCounts = () =>
      Promise.all(
        Prisma.dmmf.datamodel.models.map(async (model) => {
          const delegate = db[(model.name[0]!.toLowerCase() + model.name.slice(1)) as "shop"] as unknown as {
            count(): Promise<number>;
          };
          return [model.name, await delegate.count()] as const;
        }),
      );
    const before = await rowCounts();
    const { token } = await mintDirectAccessToken(subject);
    expect(await rowCounts()).toEqual(before);
    await Promise.all(
      Prisma.dmmf.datamodel.models.map((model) =>
        (
          db[(model.name[0]!.toLowerCase() + model.name.slice(1)) as "shop"] as unknown as {
            deleteMany(): Promise<unknown>;
          }
        ).deleteMany(),
      ),
    );
    await expect(verifyDirectAccessToken(token)).resolves.toMatchObject({ sub: CUSTOMER.id, shop: DEMO_SHOP });
  });

  test("the process refuses to start without a DIRECT_API_JWT_SECRET of at least 32 characters", async () => {
    const original = process.env.DIRECT_API_JWT_SECRET;
    try {
      for (const value of [undefined, "too-short-0123456789"]) {
        if (value === undefined) delete process.env.DIRECT_API_JWT_SECRET;
        else process.env.DIRECT_API_JWT_SECRET = value;
        vi.resetModules();
        const { getEnv } = await import("~/config/env.server");
        expect(() => getEnv()).toThrow(/DIRECT_API_JWT_SECRET/);
      }
    } finally {
      process.env.DIRECT_API_JWT_SECRET = original;
      vi.resetModules();
    }
  });
});
