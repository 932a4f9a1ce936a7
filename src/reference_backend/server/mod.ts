/**
 * One backend child's connection: launch checks (`launch.ts`), the read loop and closing
 * (`server.ts`), request admission — method, capability, initialization and params gates
 * (`dispatch.ts`) — the single ordered output with its fatal policy (`outbox.ts`, checked by
 * `self_check.ts` when `MAGI_BACKEND_SELF_CHECK=1`), the operations over the child's state
 * (`backend.ts`), what initialization advertises (`capabilities.ts`) and the `status` object
 * (`status.ts`).
 *
 * @module
 */

export { Backend, type BackendOptions } from "./backend.ts";
export { checkArguments, checkStdio } from "./launch.ts";
export { serve, type ServeOptions } from "./server.ts";
