// The tests' tokens are the sandbox's: one signer for the sandbox's admin links and the tests.
export * from "@saved-items/sandbox/session-tokens";
