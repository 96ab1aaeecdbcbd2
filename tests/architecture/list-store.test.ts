// The one door to a customer's lists and the records' hold on raw fields are the linter's
// (eslint.config.js: LIST_WRITE_IMPORTS, RAW_FIELD_IMPORTS, run by `npm run lint`). This proves the
// configuration refuses each import outside the door, and allows it inside.
import path from "node:path";
import { ESLint } from "eslint";
import { beforeAll, describe, expect, test } from "vitest";
import { repoRoot } from "@saved-items/sandbox/config";

let eslint: ESLint;

/** The restricted-import complaints about `code` as if it were the file at `file` (need not exist). */
async function restricted(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(repoRoot, file) });
  return result!.messages.filter((message) => message.ruleId === "no-restricted-imports").map((m) => m.ruleId!);
}

const LIST_WRITES = [
  `import { withWriteLocks } from "./list-locks.server";`,
  `import { listLockKey } from "~/services/saved-items/list-locks.server";`,
  `import { applyWrites } from "~/services/records/metaobject-store.server";`,
  `import { deleteItemsById } from "~/services/records/metaobject-store.server";`,
  `import { writeNamedListRecords } from "~/services/records/save-list.server";`,
  `import { writeShareFields } from "~/services/records/save-list.server";`,
  `import { writeRemovedItems } from "~/services/records/retained-list.server";`,
  `import { dropRetainedList } from "~/services/records/retained-list.server";`,
  `import { getListStateStore } from "./list-state-store.server";`,
  `import { sharedLinksChanged } from "./shared-page-cache.server";`,
  `import { sharedItemsChanged } from "~/services/saved-items/shared-page-cache.server";`,
];

const RAW_FIELDS = [
  `import { fieldValue } from "~/services/records/fields";`,
  `import { SAVE_ITEM_FIELDS } from "~/services/records/fields";`,
  `import { SAVE_LIST_FIELDS } from "~/services/records/fields";`,
  `import { DIRECTORY_FIELDS } from "~/services/records/fields";`,
  `import { INSIGHTS_FIELDS } from "~/services/records/fields";`,
];

describe("the one door to a customer's lists", () => {
  beforeAll(() => {
    eslint = new ESLint({ cwd: repoRoot });
  });

  test.each(LIST_WRITES)("outside list-store/, `%s` is refused", async (code) => {
    expect(await restricted("app/services/saved-items/fixture.ts", code)).toEqual(["no-restricted-imports"]);
    expect(await restricted("app/services/compliance/fixture.ts", code)).toEqual(["no-restricted-imports"]);
  });

  test.each(LIST_WRITES)("inside list-store/, `%s` is allowed", async (code) => {
    expect(await restricted("app/services/saved-items/list-store/fixture.server.ts", code)).toEqual([]);
  });

  test("the read sides stay open to readers", async () => {
    const reads = [
      `import { getListStateReader } from "./list-state-store.server";`,
      `import { cachedSharedPage } from "./shared-page-cache.server";`,
      `import { readItemRecords } from "~/services/records/metaobject-store.server";`,
      `import { readShareList } from "~/services/records/save-list.server";`,
    ].join("\n");
    expect(await restricted("app/services/saved-items/fixture.ts", reads)).toEqual([]);
  });
});

describe("raw metaobject fields", () => {
  test.each(RAW_FIELDS)("outside records/, `%s` is refused, list-store/ included", async (code) => {
    expect(await restricted("app/services/saved-items/fixture.ts", code)).toEqual(["no-restricted-imports"]);
    expect(await restricted("app/services/saved-items/list-store/fixture.server.ts", code)).toEqual([
      "no-restricted-imports",
    ]);
    expect(await restricted("app/edge/fixture.ts", code)).toEqual(["no-restricted-imports"]);
  });

  test.each(RAW_FIELDS)("inside records/, `%s` is allowed", async (code) => {
    expect(await restricted("app/services/records/fixture.ts", code)).toEqual([]);
  });

  test("the record types and the stored-JSON reader stay open", async () => {
    const code = `import { SAVE_ITEM_TYPE, parseStoredJson } from "~/services/records/fields";`;
    expect(await restricted("app/services/saved-items/fixture.ts", code)).toEqual([]);
  });
});
