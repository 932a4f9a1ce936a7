/**
 * The reference backend: the backend side of `magi-code.local-agent` v1 with a deterministic
 * scripted provider instead of a model, for tests, demos and client authors. It reuses
 * `src/protocol/` and `src/transport/`, never the client or the host. Deno only.
 *
 * Run it with `deno task backend serve --stdio` (`main.ts`). Rooms, each with its own `mod.ts`:
 *
 * - `server/`: one child's connection — launch checks, the read loop, request admission, the
 *   ordered output, the operations over the child's state (`Backend`) and the `status` object.
 * - `startup/`: initialization — storage root, settings, context identity, provider readiness.
 * - `sessions/`: session files, writer leases, the attachment, `session.list`/`discover`
 *   inventories and `history.page`.
 * - `worker/`: the single session worker that runs session, history, catalog and selection
 *   operations one at a time off the read loop.
 * - `catalog/`: catalog caches, scans, `model.catalog`, `model.refresh` and the selection.
 * - `run/`: one turn — events in order, assistant segments, approvals, tool cards, calls.
 * - `provider/`: the scripted provider, its scenario files and default planner.
 * - `client_tools/`: client tool definitions at initialization and call bookkeeping.
 *
 * `paging.ts` (byte- and count-bounded pages) is shared by the rooms that page a snapshot.
 *
 * @module
 */

export { Backend, type BackendOptions } from "./server/backend.ts";
export { connect, type Connection, serve, type ServeOptions } from "./server/server.ts";
