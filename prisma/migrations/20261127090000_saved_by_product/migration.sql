-- CreateTable
CREATE TABLE "SavedByProduct" (
    "shopDomain" TEXT NOT NULL,
    "productGid" TEXT NOT NULL,
    "dirtySince" TIMESTAMP(3),
    "dirtyAt" TIMESTAMP(3),
    "pendingSaves" INTEGER NOT NULL DEFAULT 0,
    "published" INTEGER,
    "bound" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "SavedByProduct_pkey" PRIMARY KEY ("shopDomain","productGid")
);

-- CreateIndex
CREATE INDEX "SavedByProduct_dirtySince_idx" ON "SavedByProduct"("dirtySince");
