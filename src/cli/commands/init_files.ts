/**
 * The files `init` writes: a Deno project (`deno.json` with its tasks, `tools/greet.ts`, its
 * test) or, run by Node.js, a Node project (`tools/greet.mjs`, a `node:test` test); both with a
 * commented `magi-tools.jsonc`.
 *
 * @module
 */

import { INVOCATION_ENV } from "../../host/invocation.ts";

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
    test: "deno test --no-prompt --allow-read --allow-write --allow-run tests/",
  };
}

/**
 * Deno (2.9 on) installs no npm version younger than a day by default; a project that takes
 * magi-tools from npm exempts that one package, so a release works on its release day (every
 * other package keeps the default). Written only for an `npm:` specifier.
 */
export const MINIMUM_AGE_EXCLUDE = "npm:@magi/tools";

/**
 * The specifier of the package's `name` entry (`./protocol`, `./records`) beside `lib.cli`:
 * `npm:@magi/tools@^V/protocol`, or `../magi-tools/protocol.ts` for a checkout.
 */
function entryOf(lib: LibrarySpecifiers, name: string): string {
  return lib.cli.endsWith("/cli.ts")
    ? `${lib.cli.slice(0, -"cli.ts".length)}${name}.ts`
    : `${lib.library}/${name}`;
}

/** The `deno.json` of a new Deno project importing magi-tools from `lib`. */
export function projectDenoJson(lib: LibrarySpecifiers): Record<string, unknown> {
  return {
    imports: {
      "@magi/tools": lib.library,
      "@magi/tools/cli": lib.cli,
      "@magi/tools/protocol": entryOf(lib, "protocol"),
      "@magi/tools/records": entryOf(lib, "records"),
      "zod": "npm:zod@^4",
      ...(lib.library.startsWith("npm:") || lib.library.startsWith("jsr:")
        ? {}
        : { "jsonc-parser": "npm:jsonc-parser@^3" }),
    },
    ...(lib.library.startsWith("npm:")
      ? { minimumDependencyAge: { exclude: [MINIMUM_AGE_EXCLUDE] } }
      : {}),
    tasks: projectTasks(),
  };
}

/** The files of a new Deno project importing magi-tools from `lib`. */
export function projectFiles(lib: LibrarySpecifiers): ProjectFile[] {
  const denoJson = projectDenoJson(lib);
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

/** The example tool module; `where` says where it runs (doc comment lines). */
function toolModule(where: string): string {
  return `import { z } from "zod";
import { defineTool } from "@magi/tools";

/**
 * An example tool: the agent sees its name, description and input schema.
${where}
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
}

const TOOL = toolModule(
  ` * It runs in its own Deno process with no permissions (add a \`permissions\`
 * object, e.g. \`{ read: ["."] }\`, when it needs some).`,
);

const TEST = `import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

// Runs a tool exactly as the agent would call it, without an agent: \`magi-tools call\`.
const CLI = import.meta.resolve("@magi/tools/cli");
const TOOLS = fileURLToPath(new URL("../tools", import.meta.url));
// This project's deno.json (imports, lockfile), wherever magi-tools itself lives.
const CONFIG = fileURLToPath(new URL("../deno.json", import.meta.url));

async function call(name: string, args: unknown) {
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      ${HOST_FLAGS.split(" ").map((flag) => JSON.stringify(flag)).join(",\n      ")},
      "--config",
      CONFIG,
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

/** The files of a new Node.js project (`npm install @magi/tools zod` provides the packages). */
export function nodeProjectFiles(): ProjectFile[] {
  return [
    { path: "magi-tools.jsonc", text: CONFIG.replaceAll("deno task start", "npx magi-tools") },
    { path: "tools/greet.mjs", text: NODE_TOOL },
    { path: "tests/greet.test.mjs", text: NODE_TEST },
  ];
}

const NODE_TOOL = toolModule(
  ` * On Node.js it runs inside the host process: declared \`permissions\` are not
 * enforced (docs/packages.md); a Deno project runs each tool in its own sandbox.`,
);

const NODE_TEST = `import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

// Runs a tool exactly as the agent would call it, without an agent: \`magi-tools call\`.
const BIN = fileURLToPath(new URL("../bin/magi-tools.js", import.meta.resolve("@magi/tools/cli")));
const TOOLS = fileURLToPath(new URL("../tools", import.meta.url));

function call(name, args) {
  const result = spawnSync(
    process.execPath,
    [BIN, "call", name, JSON.stringify(args), "--tools", TOOLS],
    { encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } },
  );
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

test("greet greets by name", () => {
  const result = call("greet", { name: "Ada", excited: true });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "Hello, Ada!\\n");
});

test("greet rejects an empty name (exit 1, invalid_arguments)", () => {
  const result = call("greet", { name: "" });
  assert.equal(result.code, 1);
  assert.match(result.stderr, /invalid_arguments/);
});
`;
