/**
 * The call path: the executor (`executor.ts`, its options in `executor_options.ts`: validate →
 * approve → slot → deadline → run inline or in the process sandbox → bound and chunk the result),
 * the `client.tools` front door over a client (`client_tools.ts`), the catalog's dispatcher calls
 * (`catalog_route.ts`), hooks (`hooks.ts`), approval of write calls (`approval.ts`,
 * `approval_rules.ts`), the call span (`telemetry.ts`), large results to files (`overflow.ts`),
 * one call without a backend (`direct_call.ts`) and the `tool.*` records, built in one place and
 * handed to one sink (`records.ts`). Files starting with `_` (`_slots.ts`, `_deadlines.ts`) are
 * internal building blocks of this folder.
 *
 * @module
 */

export { ToolCallSession } from "./client_tools.ts";
export { ToolExecutor } from "./executor.ts";
export type { ToolFailure } from "./executor.ts";
