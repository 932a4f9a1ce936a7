/**
 * The bridge side of the MCP conformance suite's client scenarios: run as
 * `conformance client --command "deno run -A tests/mcp/conformance_client.ts"
 * --scenario initialize|tools_call`, it gets the scenario server's URL as its
 * last argument, writes a config naming it (`mcpServers.conf.url`) and runs
 * one `magi-tools run` turn against the reference backend whose prompt calls
 * `conf_add_numbers` (the `tools_call` scenario's tool; absent in
 * `initialize`, whose server lists no tools). Exits with `run`'s exit code.
 *
 * @module
 */

const url = Deno.args.at(-1);
if (url === undefined) {
  console.error("usage: conformance_client.ts SERVER_URL");
  Deno.exit(2);
}
import { root } from "../_kit/root.ts";
const dir = await Deno.makeTempDir({ prefix: "magi-tools-conformance-" });
try {
  await Deno.mkdir(`${dir}/tools`);
  await Deno.writeTextFile(
    `${dir}/mcp.json`,
    JSON.stringify({ mcpServers: { conf: { url } } }),
  );
  const status = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      `--lock=${root}deno.full.lock`,
      "-A",
      `${root}cli.ts`,
      "run",
      "--no-config",
      "--mcp-config",
      `${dir}/mcp.json`,
      "--tools",
      `${dir}/tools`,
      "--approve",
      "allow",
      "--agent",
      `${Deno.execPath()} run -A ${root}src/reference_backend/main.ts serve --stdio`,
      'conf_add_numbers {"a":2,"b":3}',
    ],
    env: { MC_HOME: dir },
    stdin: "null",
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  Deno.exitCode = status.code;
} finally {
  await Deno.remove(dir, { recursive: true }).catch(() => {});
}
