import { randomUUID } from "node:crypto";
import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import { z } from "zod";
import { getEnv } from "~/config/env.server";
import { clock } from "~/lib/clock";
import { ServiceError } from "~/lib/errors";
import { DIRECT_CHANNELS, SHOP_DOMAIN_PATTERN, type DirectChannel } from "~/services/channels";

/** Lifetime of a direct-API access token (spec §5.2, §8). There is no refresh: clients exchange again. */
export const DIRECT_ACCESS_TOKEN_TTL_SECONDS = 300;

/** Clock skew tolerated between the service instances that mint and verify. */
const CLOCK_TOLERANCE_SECONDS = 5;

export const CUSTOMER_GID_PATTERN = /^gid:\/\/shopify\/Customer\/\d+$/;

// Strict on purpose: a token carrying anything but these claims was not minted here.
const DirectAccessClaimsSchema = z
  .strictObject({
    sub: z.string().regex(CUSTOMER_GID_PATTERN),
    shop: z.string().max(255).regex(SHOP_DOMAIN_PATTERN),
    channel: z.enum(DIRECT_CHANNELS),
    iat: z.number().int(),
    exp: z.number().int(),
    jti: z.uuid(),
  })
  .refine((claims) => claims.exp > claims.iat && claims.exp - claims.iat <= DIRECT_ACCESS_TOKEN_TTL_SECONDS, {
    message: "exp must follow iat by at most the token lifetime",
  });

export type DirectAccessClaims = z.infer<typeof DirectAccessClaimsSchema>;

export interface MintedDirectAccessToken {
  token: string;
  claims: DirectAccessClaims;
  expiresAt: Date;
}

function signingKey(): Uint8Array {
  return new TextEncoder().encode(getEnv().DIRECT_API_JWT_SECRET);
}

/** Mints the self-contained HS256 service token; nothing about it is stored anywhere. */
export async function mintDirectAccessToken(subject: {
  shop: string;
  customerGid: string;
  channel: DirectChannel;
}): Promise<MintedDirectAccessToken> {
  const iat = Math.floor(clock.now().getTime() / 1000);
  const claims: DirectAccessClaims = {
    sub: subject.customerGid,
    shop: subject.shop,
    channel: subject.channel,
    iat,
    exp: iat + DIRECT_ACCESS_TOKEN_TTL_SECONDS,
    jti: randomUUID(),
  };
  const token = await new SignJWT({ shop: claims.shop, channel: claims.channel })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(claims.sub)
    .setIssuedAt(claims.iat)
    .setExpirationTime(claims.exp)
    .setJti(claims.jti)
    .sign(signingKey());
  return { token, claims, expiresAt: new Date(claims.exp * 1000) };
}

/**
 * Verifies a service token: HS256 only (so "none" and asymmetric-key confusion are refused), every
 * claim present and well-formed, a few seconds of skew. Expired → TOKEN_EXPIRED, anything else
 * wrong → INVALID_TOKEN, and a token of the other channel → CHANNEL_MISMATCH.
 */
export async function verifyDirectAccessToken(
  token: string,
  expectedChannel?: DirectChannel,
): Promise<DirectAccessClaims> {
  let payload: unknown;
  try {
    ({ payload } = await jwtVerify(token, signingKey(), {
      algorithms: ["HS256"],
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      maxTokenAge: DIRECT_ACCESS_TOKEN_TTL_SECONDS,
      requiredClaims: ["sub", "shop", "channel", "iat", "exp", "jti"],
      currentDate: clock.now(),
    }));
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) {
      throw new ServiceError("TOKEN_EXPIRED", "The access token has expired; exchange again for a new one", {
        cause: error,
      });
    }
    throw new ServiceError("INVALID_TOKEN", "The access token is malformed or its signature is not valid", {
      cause: error,
    });
  }
  const claims = DirectAccessClaimsSchema.safeParse(payload);
  if (!claims.success) {
    throw new ServiceError("INVALID_TOKEN", "The access token does not carry the expected claims", {
      cause: claims.error,
    });
  }
  if (expectedChannel && claims.data.channel !== expectedChannel) {
    throw new ServiceError(
      "CHANNEL_MISMATCH",
      `This access token was issued for the ${claims.data.channel} channel; use it under /api/${claims.data.channel}/`,
    );
  }
  return claims.data;
}
