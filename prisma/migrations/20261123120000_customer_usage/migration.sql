-- CreateTable
CREATE TABLE "CustomerUsage" (
    "shopDomain" TEXT NOT NULL,
    "customerGid" TEXT NOT NULL,
    "period" TEXT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "CustomerUsage_pkey" PRIMARY KEY ("shopDomain","customerGid","period")
);

