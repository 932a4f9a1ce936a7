/**
 * Client tools (`client-tools.md`): definitions validated at initialization and the
 * `client.tools` descriptor (`definitions.ts`), the reserved built-in tool names
 * (`builtins.ts`) and call bookkeeping — call events, deadlines, cancellation with grace and
 * multi-part results (`calls.ts`).
 *
 * @module
 */

export { BUILTIN_TOOL_NAMES } from "./builtins.ts";
export { CallBook } from "./calls.ts";
export { validateClientTools } from "./definitions.ts";
