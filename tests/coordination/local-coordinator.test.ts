import { createLocalCoordinator } from "~/infrastructure/coordination/local-coordinator.server";
import { describeCoordinatorContract } from "../support/coordinator-contract";

describeCoordinatorContract("local", createLocalCoordinator);
