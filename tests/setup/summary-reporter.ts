import type { RunnerTask, RunnerTestFile } from "vitest";
import type { Reporter } from "vitest/reporters";

/** Prints one plain closing line ("vitest: N passed, N failed, N skipped") that CI tooling can read. */
export default class SummaryReporter implements Reporter {
  onFinished(files: RunnerTestFile[] = []): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    const visit = (task: RunnerTask): number => {
      if (task.type === "test") {
        const state = task.result?.state;
        if (state === "pass") counts.passed++;
        else if (state === "fail") counts.failed++;
        else counts.skipped++;
        return state === "fail" ? 1 : 0;
      }
      return "tasks" in task ? task.tasks.reduce((failed, child) => failed + visit(child), 0) : 0;
    };
    for (const file of files) {
      // A file that failed outside its tests (it did not load, or a hook threw and its tests were
      // skipped) fails the run; it counts as one failure so the closing line never says 0.
      if (visit(file) === 0 && file.result?.state === "fail") counts.failed++;
    }
    console.log(`vitest: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  }
}
