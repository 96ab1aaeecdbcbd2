import { forgetRunBuild } from "@saved-items/sandbox/build-lock";
import { prepareTestDatabases, type TestDatabases } from "@saved-items/sandbox/test-databases";

/** Migrates once per run what each test file copies into a database of its own. */
export default async function setup({ provide }: { provide: (key: "testDatabases", value: TestDatabases) => void }) {
  forgetRunBuild();
  const { databases, teardown } = await prepareTestDatabases();
  provide("testDatabases", databases);
  return async () => {
    forgetRunBuild();
    await teardown();
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    testDatabases: TestDatabases;
    /** expect.poll's timeout, vi.waitFor's too (vite.config.ts). */
    waitTimeoutMs: number;
  }
}
