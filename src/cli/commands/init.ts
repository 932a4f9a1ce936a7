/**
 * `init [DIR]`: write a minimal, working tools project — one example tool,
 * its test (which runs the tool through `call`), a `deno.json` whose `start`
 * task is the whole CLI (plus one task per command and `test`, all without
 * `-A`, their permissions derived from the config), and a commented
 * `magi-tools.jsonc`.
 *
 * Nothing is overwritten: when any of the files exists, nothing is written
 * and the command exits 2 naming them. The project's `@magi/tools` import
 * points at the copy of magi-tools that ran `init` (this checkout's files
 * when run from a checkout, else the JSR or npm package of this version), so
 * its tests pass as generated, offline.
 *
 * @module
 */

import { lstat, mkdir, stat, writeFile } from "node:fs/promises";
import { runtimeName, writeStderrLine, writeStdout } from "../../runtime/mod.ts";
import type { InitArgs } from "../args/mod.ts";
import { EXIT, exitCode, UsageError } from "../../run/exit_codes.ts";
import { PACKAGE_VERSION } from "../../host/version.ts";
import { INVOCATION_ENV } from "../args/suggest.ts";

/** One file `init` writes: its path in the project and its text. */
export interface ProjectFile {
  /** Path relative to the project directory (`/`-separated). */
  readonly path: string;
  /** File contents. */
  readonly text: string;
}

/** Where the generated project imports magi-tools from. */
export interface LibrarySpecifiers {
  /** For `@magi/tools` (the library). */
  readonly library: string;
  /** For `@magi/tools/cli` (the command line). */
  readonly cli: string;
}

/**
 * The specifiers of the magi-tools that is running: this checkout's
 * `mod.ts`/`cli.ts` as file URLs (Deno running files), the JSR package when
 * loaded from jsr.io, else (Node.js, `npx @magi/tools init`) the npm package
 * of this version.
 */
export function currentLibrary(
  moduleUrl: string = import.meta.url,
  runtime: string = runtimeName(),
): LibrarySpecifiers {
  if (moduleUrl.startsWith("file:") && runtime === "deno") {
    return {
      library: new URL("../../../mod.ts", moduleUrl).href,
      cli: new URL("../../../cli.ts", moduleUrl).href,
    };
  }
  if (moduleUrl.startsWith("https://jsr.io/")) {
    return {
      library: `jsr:@magi/tools@^${PACKAGE_VERSION}`,
      cli: `jsr:@magi/tools@^${PACKAGE_VERSION}/cli`,
    };
  }
  return {
    library: `npm:@magi/tools@^${PACKAGE_VERSION}`,
    cli: `npm:@magi/tools@^${PACKAGE_VERSION}/cli`,
  };
}

/**
 * The host's `deno run` permissions for the generated test's `call` (greet needs nothing from
 * the config): what `tools --task-flags` prints for an empty config, without the network.
 * HOME, XDG_CONFIG_HOME, APPDATA and MAGI_TOOLS_TRUST_CONFIG: the approval of a
 * magi-tools.jsonc that starts commands (`trust`, docs/mcp.md "Project configuration is code").
 */
const HOST_FLAGS =
  "--no-prompt --allow-read --allow-write --allow-env=MAGI_CODE_AGENT,PATH,NO_COLOR,FORCE_COLOR,HOME,XDG_CONFIG_HOME,APPDATA,MAGI_TOOLS_TRUST_CONFIG,MAGI_TOOLS_INVOCATION --allow-run";

/**
 * Every CLI task's permissions, in one place that needs no edit: `tools --task-flags` reads
 * `magi-tools.jsonc` and prints the host's grants plus what the config names (the environment
 * variables of `${VAR}` and OpenAPI auth, the hosts of HTTP MCP servers and spec URLs).
 * The outer `--no-prompt` holds even if that command prints nothing.
 */
const TASK_FLAGS =
  "--no-prompt $(deno run --no-prompt --allow-read --allow-env @magi/tools/cli tools --task-flags)";

/**
 * The tasks of a new project: `start` is the whole CLI (`deno task start run …`,
 * `deno task start mcp`, as in this repository), and each command the docs show has its own.
 */
export function projectTasks(): Record<string, string> {
  // Usage hints then name `deno task start …` (src/cli/args/suggest.ts), as in this repository.
  const cli = (command: string) =>
    `${INVOCATION_ENV}='deno task start' deno run ${TASK_FLAGS} @magi/tools/cli${command}`;
  return {
    start: cli(""),
    run: cli(" run"),
    call: cli(" call"),
    tools: cli(" tools"),
    inspect: cli(" inspect"),
    mcp: cli(" mcp"),
    batch: cli(" batch"),
    report: cli(" report"),
    test: "deno test --no-prompt --allow-read --allow-run tests/",
  };
}

/** The files of a new project importing magi-tools from `lib`. */
export function projectFiles(lib: LibrarySpecifiers): ProjectFile[] {
  const denoJson = {
    imports: {
      "@magi/tools": lib.library,
      "@magi/tools/cli": lib.cli,
      "zod": "npm:zod@^4",
    },
    tasks: projectTasks(),
  };
  return [
    { path: "deno.json", text: JSON.stringify(denoJson, null, 2) + "\n" },
    { path: "magi-tools.jsonc", text: CONFIG },
    { path: "tools/greet.ts", text: TOOL },
    { path: "tests/greet_test.ts", text: TEST },
  ];
}

const CONFIG = `// magi-tools project configuration (JSONC: comments and trailing commas are fine).
// Tool modules in ./tools are always loaded; add more directories with --tools DIR.
{
  // MCP servers whose tools the agent may use, in the shape Claude Desktop, Claude Code and
  // Cursor keep them (docs/mcp.md), e.g.:
  //
  //   "fs": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "."] },
  //   "remote": { "url": "https://example.com/mcp", "headers": { "Authorization": "Bearer …" } },
  //
  // The tasks in deno.json derive their permissions from this file (tools --task-flags): the
  // environment variables it names (\${VAR}, OpenAPI auth) and the hosts of remote servers.
  // A server with a "command" or a \${VAR} is code: it runs only after you approve this file
  // (deno task start trust, again after each change).
  "mcpServers": {}
  // OpenAPI documents whose operations become tools (docs/openapi.md), e.g.:
  //
  //   "openapi": { "books": { "spec": "specs/books.yaml",
  //     "auth": { "header": "Authorization", "valueFromEnv": "BOOKS_KEY", "prefix": "Bearer " } } }
}
`;

const TOOL = `import { z } from "zod";
import { defineTool } from "@magi/tools";

/**
 * An example tool: the agent sees its name, description and input schema.
 * It runs in its own Deno process with no permissions (add a \`permissions\`
 * object, e.g. \`{ read: ["."] }\`, when it needs some).
 */
export default defineTool({
  name: "greet",
  description: "Greet someone by name.",
  input: z.strictObject({
    name: z.string().min(1).describe("Who to greet"),
    excited: z.boolean().optional().describe("End with an exclamation mark"),
  }),
  effect: "read", // "write" tools need the user's approval before each call
  run({ name, excited }, ctx) {
    ctx.signal.throwIfAborted(); // cancelled, past its deadline, or shutting down
    return \`Hello, \${name}\${excited ? "!" : "."}\`;
  },
});
`;

const TEST = `import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

// Runs a tool exactly as the agent would call it, without an agent: \`magi-tools call\`.
const CLI = import.meta.resolve("@magi/tools/cli");
const TOOLS = fileURLToPath(new URL("../tools", import.meta.url));

async function call(name: string, args: unknown) {
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      ${HOST_FLAGS.split(" ").map((flag) => JSON.stringify(flag)).join(",\n      ")},
      CLI,
      "call",
      name,
      JSON.stringify(args),
      "--tools",
      TOOLS,
    ],
    env: { NO_COLOR: "1" },
  }).output();
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}

Deno.test("greet greets by name", async () => {
  const result = await call("greet", { name: "Ada", excited: true });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "Hello, Ada!\\n");
});

Deno.test("greet rejects an empty name (exit 1, invalid_arguments)", async () => {
  const result = await call("greet", { name: "" });
  assert.equal(result.code, 1);
  assert.match(result.stderr, /invalid_arguments/);
});
`;

function notFound(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "ENOENT";
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (error) {
    if (notFound(error)) return false;
    throw error;
  }
}

/** Run `init`; resolves with the exit code (2 when a file exists: nothing is written). */
export async function initCommand(args: InitArgs): Promise<number> {
  const dir = args.dir.replace(/\/+$/, "") || "/";
  let info;
  try {
    info = await stat(dir);
  } catch (error) {
    if (!notFound(error)) throw error;
  }
  if (info !== undefined && !info.isDirectory()) {
    throw new UsageError(`Init target is not a directory: ${args.dir}`);
  }
  const files = projectFiles(currentLibrary());
  const taken: string[] = [];
  for (const file of files) {
    if (await exists(`${dir}/${file.path}`)) taken.push(`${dir}/${file.path}`);
  }
  if (taken.length > 0) {
    writeStderrLine(`magi-tools: Init would overwrite existing files: ${taken.join(", ")}`);
    return exitCode("usage");
  }
  for (const file of files) {
    const path = `${dir}/${file.path}`;
    await mkdir(path.slice(0, path.lastIndexOf("/")) || "/", { recursive: true });
    // "wx": a file that appeared meanwhile is still not overwritten.
    await writeFile(path, file.text, { flag: "wx" });
  }
  const lines = [
    `Created a magi-tools project in ${dir}:`,
    ...files.map((file) => `  ${file.path}`),
    "",
    "Next:",
    `  cd ${dir}`,
    `  deno task test                          # the example tool's tests`,
    `  deno task call greet '{"name":"Ada"}'   # call a tool without an agent`,
    `  deno task inspect                       # try tools and turns in the browser`,
    `  deno task start run "greet {\\"name\\":\\"Ada\\"}"  # one agent turn`,
    `  deno task start --help                  # every command: run, mcp, batch, report, …`,
  ];
  await writeStdout(new TextEncoder().encode(lines.join("\n") + "\n"));
  return EXIT.ok;
}
