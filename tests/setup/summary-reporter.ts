import type { RunnerTask, RunnerTestFile } from "vitest";
import type { Reporter } from "vitest/reporters";

/** Prints one plain closing line ("vitest: N passed, N failed, N skipped") that CI tooling can read. */
export default class SummaryReporter implements Reporter {
  onFinished(files: RunnerTestFile[] = []): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    const visit = (task: RunnerTask): void => {
      if (task.type === "test") {
        const state = task.result?.state;
        if (state === "pass") counts.passed++;
        else if (state === "fail") counts.failed++;
        else counts.skipped++;
      } else if ("tasks" in task) {
        task.tasks.forEach(visit);
      }
    };
    files.forEach(visit);
    // A file that failed to load has no tests to count; it still fails the run.
    counts.failed += files.filter((file) => file.result?.state === "fail" && file.tasks.length === 0).length;
    console.log(`vitest: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  }
}
