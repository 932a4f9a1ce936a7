/**
 * The host's one error model (issue 25): {@link HostError} with a {@link HostErrorCode}, and
 * {@link Reported}, a failure already written to stderr as a value. The bottom floor: it
 * imports nothing, and every folder of `src/` may import it. The exit code of each code is
 * chosen in one place, `exitCode()` in `src/run/exit_codes.ts`. Wire errors stay the
 * protocol's (`ProtocolError` with its wire code, `src/protocol/errors.ts`).
 *
 * @example
 * ```ts
 * import { HostError, isHostError, reported } from "./mod.ts";
 * const error: unknown = new HostError("tool_load", "Tool module failed to load: tools/x.ts: boom");
 * if (isHostError(error, "tool_load", "registry")) console.assert(reported(error.code).reported);
 * ```
 *
 * @module
 */

export * from "./codes.ts";
export * from "./host_error.ts";
export * from "./reported.ts";
export * from "./tool_load.ts";
export * from "./usage.ts";
