/**
 * Every code table of the product, in one module used by the console and the reference platform
 * alike (spec §3, §4). Labels are the Chinese the console shows. Where spec.md says "not shown"
 * (outcome colours, result-code names, campaign states) the choice is ours and is written here.
 * The tables live in contracts/codes/, one module per area, and are imported from here: a browser
 * bundle then carries only the areas its page uses (decision 064).
 */
export * from "./codes/table";
export * from "./codes/people";
export * from "./codes/calls";
export * from "./codes/quality";
export * from "./codes/campaigns";
export * from "./codes/agents";
export * from "./codes/audit";
export * from "./codes/customers";
export * from "./codes/work-orders";
export * from "./codes/robots";
