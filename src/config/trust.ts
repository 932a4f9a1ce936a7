/**
 * Project configuration is code: a `magi-tools.jsonc` the host finds in the
 * working directory (not named by `--config`) that starts a command or reads
 * an environment variable ({@link configNeeds}) is not acted upon until the
 * user approved it outside the project, like the agent backend's rule that a
 * project cannot approve itself. Approved when any of:
 *
 * - `MAGI_TOOLS_TRUST_CONFIG=1` is set and readable (CI; read only when the
 *   host already may read it, never prompting);
 * - the trust store (`trust_store.ts`) holds this file's path with the
 *   SHA-256 of exactly this content (`magi-tools trust`);
 * - (outside this module) the user named the file with `--config`.
 *
 * An approval from the store also pins where each secret goes when the
 * config's text does not decide it (an OpenAPI `auth` without `baseUrl`: the
 * document's `servers` does): {@link checkDestination} refuses a source whose
 * destination is not the one recorded, as "changed since you trusted it".
 * The other two ways approve whatever the documents say at that moment.
 *
 * Order of work in `loadConfig`: read the file, parse the JSONC, find its
 * needs, decide here, and only then check and expand it: before approval
 * no `${VAR}` is read and no source starts.
 *
 * @module
 */

import { getEnvIfGranted } from "../runtime/mod.ts";
import { invocation } from "../host/invocation.ts";
import { ConfigError } from "./errors.ts";
import type { ConfigNeeds, SecretDestination } from "./needs.ts";
import { configKey, hashConfigText, readTrustStore, trustStorePath } from "./trust_store.ts";
import { replaceControl } from "../text/control.ts";

/** The variable that approves every project config (CI): set it to `1`. */
export const TRUST_ENV = "MAGI_TOOLS_TRUST_CONFIG";

/** A project config to decide on: where it was found and the content read. */
export interface TrustRequest {
  /** The path it was read from (relative to the process's working directory, or absolute). */
  readonly path: string;
  /** The content read (what the hash covers). */
  readonly text: string;
}

/** The decision: approved and how, or refused and why. */
export type TrustVerdict =
  | {
    readonly approved: true;
    readonly by: "env" | "store";
    /** `by: "store"`: the recorded destinations (`openapi.<name>` → base URL), when any. */
    readonly destinations?: Readonly<Record<string, string>>;
  }
  | { readonly approved: false; readonly reason: string };

/** Decides on a project config (tests inject one; default {@link trustFromUser}). */
export type TrustCheck = (request: TrustRequest) => Promise<TrustVerdict>;

/** Options of {@link trustFromUser} (tests). */
export interface TrustOptions {
  /** Reads `MAGI_TOOLS_TRUST_CONFIG`; default only when already granted. */
  readonly env?: (name: string) => string | undefined;
  /** The store file; default `trustStorePath()` (null: unknown). */
  readonly storePath?: string | null;
}

/**
 * The user's decision on `request`: the env var, else the trust store.
 * Never throws: an unreadable store is a refusal saying why.
 */
export async function trustFromUser(
  request: TrustRequest,
  options: TrustOptions = {},
): Promise<TrustVerdict> {
  const env = options.env ?? getEnvIfGranted;
  if (env(TRUST_ENV) === "1") return { approved: true, by: "env" };
  const store = options.storePath === undefined ? trustStorePath() : options.storePath;
  if (store === null) {
    return {
      approved: false,
      reason:
        "the trust store cannot be found: the host may not read HOME or XDG_CONFIG_HOME (APPDATA on Windows)",
    };
  }
  let records;
  try {
    records = await readTrustStore(store);
  } catch (error) {
    return { approved: false, reason: (error as Error).message };
  }
  const key = await configKey(request.path);
  const record = records[key];
  if (record === undefined) return { approved: false, reason: "not trusted yet" };
  if (record.sha256 !== await hashConfigText(request.text)) {
    return { approved: false, reason: "changed since you trusted it" };
  }
  return {
    approved: true,
    by: "store",
    ...(record.destinations === undefined ? {} : { destinations: record.destinations }),
  };
}

/** What a trust-store approval of a project config pins beyond its text. */
export interface DestinationPins {
  /** The config, as found. */
  readonly file: string;
  /** What it needs (for the refusal's message). */
  readonly needs: ConfigNeeds;
  /** The recorded destinations, `openapi.<name>` → base URL (none in older records). */
  readonly destinations: Readonly<Record<string, string>>;
}

/**
 * Throw {@link UnapprovedConfigError} ("changed since you trusted it") when
 * `source` (`openapi.<name>`) sends its secret to `actual` but the approval
 * recorded another destination, or none.
 */
export function checkDestination(
  pins: DestinationPins,
  source: string,
  actual: string,
  decidedBy: string,
): void {
  const recorded = pins.destinations[source];
  if (recorded === actual) return;
  const was = recorded === undefined
    ? "no destination was recorded for it"
    : `trusted: ${recorded}`;
  throw new UnapprovedConfigError(
    pins.file,
    pins.needs,
    `changed since you trusted it: ${source} would send its secret to ${actual} (${decidedBy}); ${was}`,
  );
}

/**
 * The lines of `destinations`, indented: `$VAR → where (what decides it)`;
 * `resolved` gives the destination of one whose `to` is null.
 */
export function describeDestinations(
  destinations: readonly SecretDestination[],
  resolved: Readonly<Record<string, string>> = {},
): string[] {
  return destinations.map((destination) => {
    const to = destination.to ?? resolved[destination.source] ?? "(not resolved)";
    const variables = destination.variables.map((name) => `\$${name}`).join(", ");
    return `  ${visible(variables)} (${visible(destination.source)}) → ${visible(to)} (${
      visible(destination.decidedBy)
    })`;
  });
}

/**
 * A project config that needs approval and has none. The message names the
 * file, why, what it would start and read, and the three ways to approve.
 */
export class UnapprovedConfigError extends ConfigError {
  /** The config as found. */
  readonly file: string;
  /** What it would start and read. */
  readonly needs: ConfigNeeds;
  /** `file` as found, what it needs, and why it is refused (`not trusted yet`, …). */
  constructor(file: string, needs: ConfigNeeds, reason: string) {
    super(unapprovedMessage(file, needs, reason));
    this.name = "UnapprovedConfigError";
    this.file = file;
    this.needs = needs;
  }
}

/** The lines of `needs`, indented: `starts <server>: <command line>`, `reads $VAR (<key path>)`. */
export function describeNeeds(needs: ConfigNeeds): string[] {
  return [
    ...needs.commands.map((command) =>
      `  starts ${visible(command.server)}: ${
        [command.command, ...command.args].map(shellWord).join(" ")
      }`
    ),
    ...needs.variables.map((variable) => `  reads \$${variable.name} (${visible(variable.at)})`),
    ...(needs.signIns ?? []).map((signIn) =>
      `  uses your sign-in to ${visible(signIn.server)}: ${visible(signIn.url)} (magi-tools login)`
    ),
    ...(needs.allows ?? []).map((rule) =>
      `  allows write tools without asking: ${visible(rule)} (approvals)`
    ),
  ];
}

function unapprovedMessage(file: string, needs: ConfigNeeds, reason: string): string {
  const ways: [string, string][] = [
    [
      `${invocation()} trust ${shellWord(file)}`,
      "records this content as trusted (again after a change)",
    ],
    [`--config ${shellWord(file)}`, "names the file yourself, for one command"],
    [`${TRUST_ENV}=1`, "approves every project config (CI)"],
  ];
  const width = Math.max(...ways.map(([way]) => way.length)) + 3;
  return [
    `Project config is not approved: ${visible(file)}: ${reason}`,
    "It would run commands, read environment variables or allow write tools, and a project cannot " +
    "approve itself:",
    ...describeNeeds(needs),
    "Approve it with one of:",
    ...ways.map(([way, what]) => `  ${way.padEnd(width)}${what}`),
  ].join("\n");
}

/** `word` quoted for a shell when it needs it, with control characters shown as escapes. */
function shellWord(word: string): string {
  const shown = visible(word);
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(shown) ? shown : `'${shown.replaceAll("'", `'\\''`)}'`;
}

/** `text` with every C0/C1 control character and DEL shown as `\xNN` (the text is the project's). */
function visible(text: string): string {
  return replaceControl(
    text,
    (char) => `\\x${char.charCodeAt(0).toString(16).padStart(2, "0")}`,
  );
}
