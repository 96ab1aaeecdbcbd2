import { expect, test } from "vitest";
import { csvDownloadProblem } from "./csv-download";

test("only a 200 text/csv answer is saved as the CSV", () => {
  expect(csvDownloadProblem({ status: 200, contentType: "text/csv; charset=utf-8" })).toBeNull();
  // The login page an expired session gets, with a 200: the bug of issue #32 item 7.
  expect(csvDownloadProblem({ status: 200, contentType: "text/html; charset=utf-8" })).toMatch(/not the CSV/);
  expect(csvDownloadProblem({ status: 401, contentType: "text/html" })).toMatch(/session has expired/);
  expect(csvDownloadProblem({ status: 404, contentType: "text/plain", text: "No such export" })).toBe(
    "The CSV could not be downloaded (HTTP 404): No such export. Prepare it again.",
  );
});
