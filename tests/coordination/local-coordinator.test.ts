import { createLocalCoordinator } from "~/infrastructure/coordination/local-coordinator.server";
import { describeCoordinatorContract } from "./contract";

describeCoordinatorContract("local", createLocalCoordinator);
