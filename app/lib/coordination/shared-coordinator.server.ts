import { createLocalCoordinator } from "./local-coordinator.server";
import type { Coordinator } from "./coordinator.server";

let coordinator: Coordinator | undefined;

/** The process's coordinator: shared through Redis when REDIS_URL is set, in-process otherwise. */
export function getCoordinator(): Coordinator {
  coordinator ??= createLocalCoordinator();
  return coordinator;
}
