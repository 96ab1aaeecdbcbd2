// Prints the figures of a `vitest bench --outputJson` file as a table (the bench reporter only
// draws its table on a terminal).
import { readFileSync } from "node:fs";

interface Benchmark {
  name: string;
  mean: number;
  p75: number;
  p99: number;
  hz: number;
  sampleCount: number;
}
const report = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as {
  files: { groups: { fullName: string; benchmarks: Benchmark[] }[] }[];
};
for (const group of report.files.flatMap((file) => file.groups)) {
  console.log(`\n${group.fullName}`);
  console.table(
    group.benchmarks.map((b) => ({
      operation: b.name,
      "mean ms": b.mean.toFixed(2),
      "p75 ms": b.p75.toFixed(2),
      "p99 ms": b.p99.toFixed(2),
      "ops/s": b.hz.toFixed(0),
      samples: b.sampleCount,
    })),
  );
}
