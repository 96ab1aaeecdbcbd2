-- AlterTable
ALTER TABLE "FlowTriggerUse" ADD COLUMN     "lastFiredAt" TIMESTAMP(3);
