-- AlterTable
ALTER TABLE "SavedByProduct" ADD COLUMN     "countedAt" TIMESTAMP(3);
