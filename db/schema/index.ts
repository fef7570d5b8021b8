export * from "./audit-log";
export * from "./customers";
export * from "./items";
export * from "./limit-overrides";
export * from "./operator";
export * from "./plan-limits";
export * from "./plans";
export * from "./service-tokens";
