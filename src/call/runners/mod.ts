/**
 * One runner per tool kind (`../registry.ts`' `ToolKind`), as `../executor.ts` uses them:
 * `inline.ts` runs a module tool in the host, `process.ts` in its own sandboxed process (the
 * process runner itself is imported lazily, Deno only), `external.ts` hands the call to its
 * source (MCP, OpenAPI); `runner.ts` is what they share (the runner contract, the call's
 * control, its progress, its timeout).
 *
 * @module
 */

export { ExternalRunner } from "./external.ts";
export { InlineRunner, runInHost } from "./inline.ts";
export { ProcessToolRunner } from "./process.ts";
export type { Checked, RunControl, RunnerEnv, Settled, ToolRunner } from "./runner.ts";
