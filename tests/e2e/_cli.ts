/** Run the CLI as a child process and collect its NDJSON records (e2e test helper). */

import {
  cli,
  type CliOptions as KitCliOptions,
  type CliResult,
  FAKE_BACKEND,
  fakeAgent,
  FULL_CLI,
  ofType,
  one,
  type Rec,
  REFERENCE_AGENT,
  root as ROOT,
} from "../_kit/mod.ts";

export {
  type CliResult,
  FAKE_BACKEND,
  fakeAgent,
  FULL_CLI,
  ofType,
  one,
  type Rec,
  REFERENCE_AGENT,
  ROOT,
};

/** Fixture tool directory. */
export const FIXTURE_TOOLS = `${ROOT}tests/e2e/fixtures/tools`;
/** Scenario file of the e2e tests. */
export const SCENARIO = `${ROOT}tests/e2e/fixtures/scenarios/results.jsonc`;

/**
 * `deno run` flags of a test program that imports dev-only packages (the MCP SDK by its bare
 * name, the pinned MCP servers): `dev/deno.json` and its lockfile.
 */
export const DEV_CONFIG: readonly string[] = ["--config", `${ROOT}dev/deno.json`];

/** Options of {@link runCli}: the kit's, with records parsed unless `raw`. */
export type CliOptions = Omit<KitCliOptions, "records"> & {
  /** stdout is not NDJSON summaries (help, tools): do not parse it. */
  raw?: boolean;
};

/**
 * Run `deno run -A mod.ts ...args` (the full CLI, {@link FULL_CLI}) from the repository root
 * (or `options.cwd`), its summary records parsed and validated (the kit's {@link cli}).
 */
export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  return cli(args, { ...options, records: options.raw !== true });
}
