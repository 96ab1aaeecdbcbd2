-- CreateTable
CREATE TABLE "SavedByRecount" (
    "shopDomain" TEXT NOT NULL,
    "countedAt" TIMESTAMP(3),
    "operation" TEXT,
    "startedAt" TIMESTAMP(3),
    "runAfter" TIMESTAMP(3) NOT NULL,
    "claimToken" TEXT,

    CONSTRAINT "SavedByRecount_pkey" PRIMARY KEY ("shopDomain")
);

-- CreateIndex
CREATE INDEX "SavedByRecount_runAfter_idx" ON "SavedByRecount"("runAfter");
