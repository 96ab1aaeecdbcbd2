// A process's CPU time and resident memory read from /proc, so a process is measured without
// asking it anything (the bench must not add work to what it measures).
import { readFileSync } from "node:fs";

/** Linux's USER_HZ: /proc reports CPU times in these ticks; 100 on every mainstream build. */
const TICKS_PER_SECOND = 100;

/** User plus system CPU seconds the process has used so far. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // The command name (field 2) may hold spaces; the fields after it are space-separated.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

export function rssBytes(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  if (!match) throw new Error(`no VmRSS for process ${pid}`);
  return Number(match[1]) * 1024;
}

/** CPU seconds a process spends while `run` runs. */
export async function measureCpu<T>(pid: number, run: () => Promise<T>): Promise<{ result: T; cpuSeconds: number }> {
  const before = cpuSeconds(pid);
  const result = await run();
  return { result, cpuSeconds: cpuSeconds(pid) - before };
}
