-- CreateTable
CREATE TABLE "PendingCustomerRedaction" (
    "shopDomain" TEXT NOT NULL,
    "customerGid" TEXT NOT NULL,
    "requestedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("shopDomain", "customerGid")
);
