import { execFileSync } from "node:child_process";

/** Whether a process with this id exists (signal 0 checks without sending anything). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The processes below `pid`, from the process table (children, their children, ...). */
export function descendantsOf(pid: number): number[] {
  const table = execFileSync("ps", ["-eo", "pid=,ppid="], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
  const found: number[] = [];
  const visit = (parent: number) => {
    for (const [child, parentOfChild] of table) {
      if (parentOfChild === parent) {
        found.push(child);
        visit(child);
      }
    }
  };
  visit(pid);
  return found;
}
