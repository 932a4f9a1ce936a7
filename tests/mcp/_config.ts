/** MCP e2e helpers: config files for the pinned npm servers and the fixture server. */

import { DEV_CONFIG, ROOT } from "../e2e/_cli.ts";

/** The pinned `server-everything` (same version as dev/deno.json's import). */
export const EVERYTHING = "npm:@modelcontextprotocol/server-everything@2026.8.31";
/** The pinned `server-filesystem`. */
export const FILESYSTEM = "npm:@modelcontextprotocol/server-filesystem@2026.8.31";
/** The misbehaving fixture server. */
export const FIXTURE_SERVER = `${ROOT}tests/mcp/fixtures/server.ts`;

/** A stdio server entry running `target` with `deno run -A` and the dev config (its packages). */
export function denoServer(target: string, extra: Record<string, unknown> = {}) {
  const { args = [], ...rest } = extra as { args?: string[] };
  return { command: Deno.execPath(), args: ["run", ...DEV_CONFIG, "-A", target, ...args], ...rest };
}

/** Write `config` to a temporary `magi-tools.jsonc`; returns its path. */
export async function writeConfig(config: unknown): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "magi-tools-mcp-" });
  const path = `${dir}/magi-tools.jsonc`;
  await Deno.writeTextFile(path, JSON.stringify(config, null, 2));
  return path;
}
