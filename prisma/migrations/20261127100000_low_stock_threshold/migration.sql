-- AlterTable
ALTER TABLE "Shop" ADD COLUMN     "lowStockThreshold" INTEGER;
