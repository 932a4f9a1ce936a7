/**
 * Entry point of the reference backend: `deno task backend serve --stdio`.
 *
 * Launch checks come first (exactly `serve --stdio`, stdin and stdout both pipes); an
 * invalid launch prints one line on stderr and exits 2 before any side effect. At
 * runtime stdout carries protocol bytes only; stderr gets at most one line per rejected
 * startup, naming the settings or scenario file, the JSON path and the reason, before
 * `configuration_invalid` is answered (`config_errors.ts`).
 *
 * Environment: `MC_HOME` (storage root, default `$HOME/.magi-code`), `MAGI_SCENARIO`
 * (scenario file, overrides settings), `MAGI_BACKEND_SELF_CHECK=1` (validate own output;
 * a violation ends the child with exit 70 and a message on stderr — tests only), and the
 * test/demo hooks `MAGI_OPERATION_DELAY_MS` (slow session-worker operations) and
 * `MAGI_APPROVAL_EXPIRY_MS` (approval expiry, 50–60,000 ms; advertised truthfully).
 *
 * @module
 */

import { checkArguments, checkStdio, streamKind } from "./server/launch.ts";
import { connect } from "./server/server.ts";

/** Run the backend with `args`; resolves with the exit code. */
export async function main(args: readonly string[]): Promise<number> {
  const launch = checkArguments(args);
  if (!launch.ok) {
    console.error(launch.message);
    return 2;
  }
  const stdio = checkStdio({
    stdin: streamKind("/dev/stdin", Deno.stdin.isTerminal()),
    stdout: streamKind("/dev/stdout", Deno.stdout.isTerminal()),
  });
  if (!stdio.ok) {
    console.error(stdio.message);
    return 2;
  }
  let cwd = "";
  try {
    cwd = Deno.cwd();
  } catch {
    // A vanished cwd fails startup with startup_failed.
  }
  const connection = connect({
    stdin: Deno.stdin.readable,
    stdout: Deno.stdout.writable,
    cwd,
    env: (name) => Deno.env.get(name),
    selfCheck: Deno.env.get("MAGI_BACKEND_SELF_CHECK") === "1",
  });
  const code = await connection.exit;
  connection.leases.releaseAllSync();
  return code;
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
