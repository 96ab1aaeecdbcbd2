import { prepareTestDatabases, type TestDatabases } from "@saved-items/sandbox/test-databases";

/** Migrates once per run what each test file copies into a database of its own. */
export default async function setup({ provide }: { provide: (key: "testDatabases", value: TestDatabases) => void }) {
  const { databases, teardown } = await prepareTestDatabases();
  provide("testDatabases", databases);
  return teardown;
}

declare module "vitest" {
  export interface ProvidedContext {
    testDatabases: TestDatabases;
  }
}
