-- CreateTable
CREATE TABLE "OverageSetting" (
    "shopDomain" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT false,
    "requestedCapCents" INTEGER NOT NULL,
    "cappedPeriod" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "OverageSetting_pkey" PRIMARY KEY ("shopDomain")
);

-- CreateTable
CREATE TABLE "OverageUsage" (
    "shopDomain" TEXT NOT NULL,
    "period" TEXT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "OverageUsage_pkey" PRIMARY KEY ("shopDomain","period")
);

-- CreateTable
CREATE TABLE "OverageBlock" (
    "shopDomain" TEXT NOT NULL,
    "period" TEXT NOT NULL,
    "block" INTEGER NOT NULL,
    "usageRecordGid" TEXT NOT NULL,
    "priceCents" INTEGER NOT NULL,
    "chargedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OverageBlock_pkey" PRIMARY KEY ("shopDomain","period","block")
);
