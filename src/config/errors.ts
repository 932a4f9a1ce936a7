/**
 * The error of a bad `magi-tools.jsonc` (or `--mcp-config` file): the CLI
 * prints its message and exits 2.
 *
 * @module
 */

import { HostError } from "../errors/mod.ts";

/**
 * A config file cannot be used: unreadable, not JSONC, an unknown key or a
 * bad value. The message names the file and the key path, e.g.
 * `magi-tools.jsonc: mcpServers.fs.timeoutMs: must be an integer from 1000 to 600000`.
 * A `HostError` with the code `config`.
 */
export class ConfigError extends HostError<"config"> {
  /** The file could not be read for lack of permission. */
  readonly permission: boolean;
  /** Message as given. */
  constructor(message: string, options: { permission?: boolean } = {}) {
    super("config", message);
    this.name = "ConfigError";
    this.permission = options.permission ?? false;
  }
}
