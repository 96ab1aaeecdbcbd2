-- AlterTable
ALTER TABLE "PendingCustomerRedaction" ADD COLUMN     "attempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "claimToken" TEXT,
ADD COLUMN     "deletedItems" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "deletedLists" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "runAfter" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- CreateIndex
CREATE INDEX "PendingCustomerRedaction_runAfter_idx" ON "PendingCustomerRedaction"("runAfter");
