-- Writes that do not need Redis (docs/decisions/0026-redis-locks-with-a-postgresql-fallback.md,
-- issue #34): the coordination mode, the instances' Redis permits, and the list locks taken here
-- while Redis is away.
CREATE TABLE "CoordinationMode" (
    "scope" TEXT NOT NULL,
    "epoch" BIGINT NOT NULL,
    "mode" TEXT NOT NULL,
    "changedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "CoordinationMode_pkey" PRIMARY KEY ("scope")
);

CREATE TABLE "CoordinationInstance" (
    "scope" TEXT NOT NULL,
    "instanceId" TEXT NOT NULL,
    "permitEpoch" BIGINT,
    "permitExpiresAt" TIMESTAMPTZ(3),
    "seenAt" TIMESTAMPTZ(3) NOT NULL,
    "redisReachable" BOOLEAN NOT NULL,

    CONSTRAINT "CoordinationInstance_pkey" PRIMARY KEY ("scope","instanceId")
);

CREATE TABLE "FallbackLock" (
    "scope" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "fence" BIGINT NOT NULL,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "FallbackLock_pkey" PRIMARY KEY ("scope","key")
);
