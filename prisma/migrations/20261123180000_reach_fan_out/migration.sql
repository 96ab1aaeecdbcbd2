-- CreateTable
CREATE TABLE "ReachFanOut" (
    "shopDomain" TEXT NOT NULL,
    "webhookId" TEXT NOT NULL,
    "productGid" TEXT NOT NULL,
    "changes" JSONB NOT NULL,
    "doneChange" INTEGER NOT NULL DEFAULT -1,
    "doneCustomer" BIGINT NOT NULL DEFAULT 0,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "runAfter" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ReachFanOut_pkey" PRIMARY KEY ("shopDomain","webhookId")
);

-- CreateIndex
CREATE INDEX "ReachFanOut_shopDomain_runAfter_idx" ON "ReachFanOut"("shopDomain", "runAfter");
