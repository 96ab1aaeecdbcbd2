// The client core lives in the client package (packages/client); the extensions bundle its source.
export * from "../../packages/client/src/list-key";
