import { createLocalCoordinator } from "~/lib/coordination/local-coordinator.server";
import { describeCoordinatorContract } from "./contract";

describeCoordinatorContract("local", createLocalCoordinator);
