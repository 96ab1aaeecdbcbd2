import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { migrateDatabase } from "./database";

/** Migrates one template database per run; each test file starts from its own copy. */
export default function setup({ provide }: { provide: (key: "templateDatabase", value: string) => void }) {
  const dir = mkdtempSync(path.join(tmpdir(), "saved-items-test-"));
  const template = path.join(dir, "template.sqlite");
  migrateDatabase(template);
  provide("templateDatabase", template);
  return () => rmSync(dir, { recursive: true, force: true });
}

declare module "vitest" {
  export interface ProvidedContext {
    templateDatabase: string;
  }
}
