/**
 * The `magi-tools` command line as a module: `main(argv)` runs one CLI
 * invocation (`run`, `tools`, `demo`, `--help`, `--version`; see
 * `docs/cli.md`) and resolves with its exit code. Run as a program it
 * parses `Deno.args` and exits with that code:
 *
 * ```sh
 * deno run -A jsr:@magi/tools/cli run "Count the words in README.md"
 * ```
 *
 * @example Print the version and check the exit code
 * ```ts
 * import { main } from "./cli.ts";
 *
 * const code = await main(["--version"]);
 * if (code !== 0) throw new Error(`magi-tools --version exited ${code}`);
 * ```
 *
 * @module
 */

import { main } from "./src/cli/main.ts";
import { commandArgs, exitProcess } from "./src/runtime/mod.ts";

export { main };

if (import.meta.main) {
  exitProcess(await main(commandArgs()));
}
