/**
 * The OpenAPI example in one command (`deno task example:openapi`): start the
 * ticket API (server.ts) on 127.0.0.1:8780 with a demo token, run one turn of
 * `magi-tools run --config examples/openapi/magi-tools.jsonc` against the
 * reference backend (whose scripted provider calls the tools named in the
 * prompt), print its NDJSON to stdout, stop the API and exit with the run's
 * exit code. `createTicket` is a write tool: the default approval policy
 * denies it, and the NDJSON shows that.
 *
 * @module
 */

import { serveTickets, TICKETS_PORT } from "./server.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** The turn's prompt: each `name {json}` is a tool call of the scripted provider. */
export const EXAMPLE_PROMPT = 'Look up getTicket {"id":"MAGI-7"} ' +
  'then listTickets {"status":"open","label":["bug"]} ' +
  'then searchTickets {"body":{"text":"openapi"}} ' +
  'then createTicket {"body":{"title":"Triage MAGI-7","labels":["bug"]}} and summarize.';

const token = Deno.env.get("TICKETS_TOKEN") || `demo-${crypto.randomUUID()}`;
// Sessions of this run go to a temporary MC_HOME, removed at the end.
const home = await Deno.makeTempDir({ prefix: "magi-tools-openapi-example-" });
let server: Deno.HttpServer<Deno.NetAddr>;
try {
  server = serveTickets(TICKETS_PORT, token);
} catch (error) {
  if (!(error instanceof Deno.errors.AddrInUse)) throw error;
  console.error(
    `example:openapi: port ${TICKETS_PORT} is taken (baseUrl in magi-tools.jsonc names it); ` +
      "stop what holds it and try again",
  );
  Deno.exit(1);
}
console.error(`example:openapi: ticket API on http://127.0.0.1:${TICKETS_PORT}/api`);
let code = 1;
try {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      // The full CLI's lockfile: the OpenAPI packages are not in the root deno.lock.
      `--lock=${ROOT}deno.full.lock`,
      "--no-prompt",
      "--allow-read",
      "--allow-write",
      "--allow-run",
      "--allow-env=MAGI_CODE_AGENT,PATH,TICKETS_TOKEN",
      `${ROOT}cli.ts`,
      "run",
      // The scripted reference backend, named: it is never chosen unasked.
      "--agent",
      "reference",
      "--config",
      "examples/openapi/magi-tools.jsonc",
      "--tools",
      "examples/openapi/tools",
      EXAMPLE_PROMPT,
    ],
    cwd: ROOT,
    env: { TICKETS_TOKEN: token, MC_HOME: home, NO_COLOR: "1" },
    stdin: "null",
  }).spawn();
  code = (await child.status).code;
} finally {
  await server.shutdown();
  await Deno.remove(home, { recursive: true }).catch(() => {});
}
Deno.exit(code);
