/**
 * The `magi-tools` command, the top floor: it parses argv into options and calls the layers
 * below (`src/run/` for turns, `batch`, `report`, `inspect`), nothing else imports it.
 *
 * - `main.ts`: the entry (`cli.ts` runs it): parse, dispatch, map a usage error to exit 2.
 * - `args/`: the flags, parsed once (one option table, one parser per kind of value).
 * - `help/`: the help texts.
 * - `commands/`: one file per command, imported when that command runs.
 *
 * @module
 */

export { main } from "./main.ts";
