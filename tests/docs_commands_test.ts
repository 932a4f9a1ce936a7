/**
 * The shell commands the docs show, kept true: every command in a `sh` code block of README.md
 * and docs/*.md is listed in {@link COMMANDS} with how it is checked, and a command the table
 * does not know fails the first test until someone classifies it (a stale entry fails too):
 *
 * - `run`: run offline with bash, as written (with this Deno for `deno` and in place of
 *   `npx --yes deno@2.9.6`, which is the same release), bounded in time; it must exit 0;
 * - `parse`: long-running, writing into the checkout, or needing downloads at run time: only
 *   its argument vector is checked, with the CLI's own parser (`parseCli`), plus why it is not run;
 * - `cannot`: not a magi-tools command run here (another tool, a user's directory, the whole
 *   test suite), with the reason.
 *
 * Usage synopses in untyped code blocks (`deno task start mcp [--tools DIR]…`) are checked apart:
 * each names a command whose `--help` the parser accepts. Commands inside prose are not covered.
 */
import assert from "node:assert/strict";
import { parseCli } from "../src/cli/args/mod.ts";
import { splitCommandLine } from "../src/run/split.ts";
import { REFERENCE_AGENT, ROOT } from "./e2e/_cli.ts";

/** One command line of a `sh` block (continuations joined, the trailing comment removed). */
interface DocCommand {
  readonly where: string;
  readonly text: string;
}

/** How a documented command is checked. */
type Check =
  | {
    readonly run: {
      /** `root`: this checkout; `project`: the `init` project README's loop makes. */
      readonly cwd: "root" | "project";
      /** What the test changes before running, and why (e.g. a temporary directory). */
      readonly rewrite?: (text: string, project: string) => string;
      /** stdin; default none (`/dev/null`). */
      readonly stdin?: string;
    };
  }
  | { readonly parse: string }
  | { readonly cannot: string };

const ROOT_DIR = ROOT.replace(/\/$/, "");

/** The one init project of the README's loop, in a temporary directory (made by its own entry). */
const INIT = "deno task init my-tools && cd my-tools";

const COMMANDS: Readonly<Record<string, Check>> = {
  // README.md: a fresh machine.
  "npx --yes deno@2.9.6 task demo": { run: { cwd: "root" } },
  "npx --yes deno@2.9.6 task test": {
    cannot: "the whole suite, which contains this test; CI runs it (.ci/run)",
  },
  "npx --yes deno@2.9.6 task start tools": { run: { cwd: "root" } },
  'npx --yes deno@2.9.6 task start run --agent reference "text_stats {\\"text\\":\\"a b\\"}"': {
    run: { cwd: "root" },
  },
  // README.md: the tool author's loop, in a project made by init.
  [INIT]: {
    run: {
      cwd: "root",
      // my-tools goes into a temporary directory instead of the checkout.
      rewrite: (text, project) => text.replaceAll("my-tools", project),
    },
  },
  'deno task call greet \'{"name":"Ada"}\'': { run: { cwd: "project" } },
  "deno task test": { run: { cwd: "project" } },
  // docs/tools.md: approval rules (run in tests/e2e/approval_rules_test.ts).
  'deno task start run --approve allow=file_ticket --approve deny "file a ticket"': {
    parse: "needs tools named in the rules; run, batch and mcp with rules run in tests/e2e/",
  },
  "deno task start batch items.jsonl --out out --approve 'allow=module/file_*' --approve deny=mcp:github":
    { parse: "a user's items.jsonl; batch with rules runs in tests/e2e/approval_rules_test.ts" },
  "deno task start mcp --approve allow=file_ticket --approve 'ask=mcp:*' --approve deny": {
    parse: "a server that runs until stdin ends; mcp with rules runs in tests/e2e/",
  },
  "deno task inspect": { parse: "a web server that runs until Ctrl-C (tests/inspect/)" },
  'deno task start run "greet {\\"name\\":\\"Ada\\"}"': { run: { cwd: "project" } },
  // README.md: MCP, batch, report, the backend by hand.
  'deno task start run --agent reference --config examples/mcp.jsonc "everything_echo {\\"message\\":\\"hi\\"}"':
    {
      parse: "starts MCP servers from npm packages that a fresh machine downloads (tests/mcp/)",
    },
  "deno task start mcp": { run: { cwd: "root" } }, // stdin ends at once: the server exits 0
  "deno task start batch examples/batch/tickets.jsonl --out out --jobs 2 --agent reference": {
    parse: "writes out/ into the checkout; the example batch runs in tests/batch/examples_test.ts",
  },
  "deno task start report out --markdown - --html report.html": {
    parse: "needs the out/ of the batch above and writes report.html into the checkout",
  },
  "cat | npx --yes deno@2.9.6 task backend serve --stdio | cat": {
    cannot: "interactive: the reader pastes frames by hand; `deno task backend serve --stdio` runs",
  },
  // docs/batch.md.
  "deno task start batch tickets.jsonl --out out --jobs 4 --tools tools": {
    parse: "a user's tickets.jsonl and tools/; batch runs in tests/batch/",
  },
  "deno task start report out --markdown report.md --html report.html": {
    parse: "needs a batch's out/; report runs in tests/report/",
  },
  // docs/cli.md.
  'deno run $(deno task -q start tools --deno-flags) cli.ts run --no-config "prompt"': {
    run: { cwd: "root" },
  },
  'deno task start call text_stats \'{"text":"a b c"}\'': { run: { cwd: "root" } },
  'echo \'{"text":"a b c"}\' | deno task start call text_stats --json': { run: { cwd: "root" } },
  // docs/inspect.md, docs/mcp.md: synopses written in sh blocks.
  "deno task start inspect [--tools DIR]... [--config FILE | --no-config] [--mcp-config FILE]... [--port N] [--agent CMD] [--cwd DIR] [--approve RULE]...":
    { cannot: "a synopsis with placeholders; checked below with the other synopses" },
  "deno task start mcp [--tools DIR]... [--config FILE] [--no-config] [--mcp-config FILE]... [--http PORT [--token TOKEN] [--max-sessions N] [--session-idle-timeout SECONDS]] [--approve deny|allow|ask] [--approve-timeout SECONDS] [--watch]":
    { cannot: "a synopsis with placeholders; checked below with the other synopses" },
  // docs/mcp.md.
  'deno task start run --config examples/mcp.jsonc \'everything_echo {"message":"hi"} everything_get-sum {"a":2,"b":3}\'':
    { parse: "starts MCP servers from npm packages that a fresh machine downloads (tests/mcp/)" },
  "DENO_NO_UPDATE_CHECK=1 MAGI_TOOLS_MCP_TOKEN=… deno run --lock=deno.full.lock --no-prompt --allow-read --allow-write --allow-env=MAGI_CODE_AGENT,PATH,HOME,MAGI_TOOLS_MCP_TOKEN --allow-run --allow-net=127.0.0.1 cli.ts mcp --http 8808":
    {
      cannot:
        "serves until SIGINT, with a placeholder token; tests/security/mcp_http_auth_test.ts starts mcp --http",
    },
  // docs/openapi.md.
  "npx --yes deno@2.9.6 task example:openapi": { run: { cwd: "root" } },
  "TICKETS_TOKEN=x npx --yes deno@2.9.6 task start tools --config examples/openapi/magi-tools.jsonc --tools examples/openapi/tools":
    { run: { cwd: "root" } },
  // docs/packages.md.
  "deno run -A npm:@magi/tools/cli init my-tools": {
    cannot: "needs the published npm package (tests/npm/registry_test.ts publishes one to a " +
      "local registry and runs this init)",
  },
  "deno run -A jsr:@magi/tools/cli init my-tools": {
    cannot: "needs JSR, which this machine cannot reach",
  },
  "npx magi-tools init": {
    cannot: "needs the installed npm package (tests/npm/registry_test.ts runs it)",
  },
  "npm install @magi/tools zod": { cannot: "installs the published npm package into a user's app" },
  // docs/packages.md: the optional features' packages (tests/npm/registry_test.ts installs them
  // from a Verdaccio registry as the error message says, on Node.js and Deno).
  "npm install @modelcontextprotocol/sdk@1.32.2": {
    cannot: "adds the MCP SDK to a user's app (tests/npm/registry_test.ts, smoke.ts)",
  },
  "npm install '@apidevtools/json-schema-ref-parser@^16.0.5' 'ajv@^8.20.0' 'js-yaml@^5.5.0'": {
    cannot: "adds the OpenAPI packages to a user's app (tests/npm/registry_test.ts, smoke.ts)",
  },
  "deno add npm:@modelcontextprotocol/sdk@1.32.2": {
    cannot: "adds the MCP SDK to a user's Deno project's deno.json",
  },
  "deno add 'npm:@apidevtools/json-schema-ref-parser@^16.0.5' 'npm:ajv@^8.20.0' 'npm:js-yaml@^5.5.0'":
    { cannot: "adds the OpenAPI packages to a user's Deno project (tests/npm/registry_test.ts)" },
  'npx magi-tools run --agent "magi-code serve --stdio" "Summarize the open tickets"': {
    cannot: "needs the installed npm package and a real magi-code",
  },
  "deno task build:npm": {
    cannot: "an esbuild bundle and a Node.js smoke test, minutes long (tests/npm/)",
  },
  "(cd npm && npm pack --pack-destination ..)": { cannot: "needs the build:npm output" },
  "cd ../my-app && npm install ../magi-tools/magi-tools-0.1.0.tgz zod": {
    cannot: "a user's app next to the checkout",
  },
  "deno task demo": { run: { cwd: "root" } },
  "export OTEL_DENO=true OTEL_EXPORTER_OTLP_ENDPOINT=http://localhost:4318 OTEL_SERVICE_NAME=magi-tools":
    { cannot: "sets the environment of the reader's shell for the command after it" },
  'deno task start run "Summarize the open tickets"': {
    parse: "exports to a collector the reader runs (tests/telemetry/ uses a loopback receiver)",
  },
  "docker run --rm --name jaeger -p 16686:16686 -p 4318:4318 jaegertracing/jaeger:latest": {
    cannot: "a Jaeger container (Docker and an image download)",
  },
  "docker run --rm --name lgtm -p 3000:3000 -p 4318:4318 grafana/otel-lgtm:latest": {
    cannot: "a Grafana/Tempo container (Docker and an image download)",
  },
  "deno test --config dev/deno.json -A --no-prompt tests/mcp/": {
    cannot: "a directory of the suite, which CI runs whole",
  },
  "deno check --config dev/deno.json mod.ts cli.ts src/ tests/": {
    cannot: "the test task's type check covers these files and more (deno task test)",
  },
  "deno run -A scripts/locks.ts": { run: { cwd: "root" } },
  "deno run -A scripts/first_run.ts": {
    cannot: "measures a first run with an empty Deno cache (downloads; tests/scripts/)",
  },
  // docs/reference-backend.md: stdin ends at once, the backend exits 0.
  "deno task backend serve --stdio": { run: { cwd: "root", stdin: "" } },
};

const DOCS = [
  "README.md",
  ...[...Deno.readDirSync(`${ROOT}docs`)].filter((entry) => entry.name.endsWith(".md"))
    .map((entry) => `docs/${entry.name}`).sort(),
];

/** `line` without a trailing ` # comment` (a `#` inside quotes is kept). */
function stripComment(line: string): string {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote !== null) {
      if (c === "\\" && quote === '"') i++;
      else if (c === quote) quote = null;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === "\\") i++;
    else if (c === "#" && (i === 0 || /\s/.test(line[i - 1]!))) return line.slice(0, i).trimEnd();
  }
  return line.trimEnd();
}

/** The code blocks of `file`: their language and lines, with the line number of each. */
function blocks(file: string): { lang: string; lines: { n: number; text: string }[] }[] {
  const found: { lang: string; lines: { n: number; text: string }[] }[] = [];
  let current: { lang: string; lines: { n: number; text: string }[] } | null = null;
  Deno.readTextFileSync(`${ROOT}${file}`).split("\n").forEach((text, index) => {
    if (text.startsWith("```")) {
      if (current === null) current = { lang: text.slice(3).trim(), lines: [] };
      else {
        found.push(current);
        current = null;
      }
    } else current?.lines.push({ n: index + 1, text });
  });
  return found;
}

const SHELL = new Set(["sh", "bash", "shell", "console"]);

/** Every command of the docs' shell blocks. */
function docCommands(): DocCommand[] {
  const commands: DocCommand[] = [];
  for (const file of DOCS) {
    for (const block of blocks(file)) {
      if (!SHELL.has(block.lang)) continue;
      let pending = "";
      let start = 0;
      for (const { n, text } of block.lines) {
        if (pending === "") start = n;
        const line = stripComment(text);
        if (line.endsWith("\\")) {
          pending += line.slice(0, -1).trim() + " ";
          continue;
        }
        const command = (pending + line.trim()).replace(/\s+/g, " ").trim();
        pending = "";
        if (command !== "") commands.push({ where: `${file}:${start}`, text: command });
      }
      // The synopses in sh blocks wrap without a backslash: join their indented lines.
      for (let i = commands.length - 1; i > 0; i--) {
        const here = commands[i]!;
        const before = commands[i - 1]!;
        if (here.text.startsWith("[") && before.where.split(":")[0] === file) {
          commands[i - 1] = { where: before.where, text: `${before.text} ${here.text}` };
          commands.splice(i, 1);
        }
      }
    }
  }
  return commands;
}

const COMMANDS_IN_DOCS = docCommands();

Deno.test("docs commands: every shell command in README.md and docs/*.md is classified", () => {
  const unknown = COMMANDS_IN_DOCS.filter((command) => !(command.text in COMMANDS));
  assert.deepEqual(
    unknown.map((command) => `${command.where}: ${command.text}`),
    [],
    "Classify these in tests/docs_commands_test.ts (run, parse with a reason, or cannot with one)",
  );
  const shown = new Set(COMMANDS_IN_DOCS.map((command) => command.text));
  const stale = Object.keys(COMMANDS).filter((text) => !shown.has(text));
  assert.deepEqual(stale, [], "These entries are in no doc any more: remove them");
});

/** The CLI's arguments of a command that runs the CLI (`deno task start …`, an init task). */
function cliArgv(text: string): string[] {
  const words = splitCommandLine(text);
  const start = words.indexOf("start");
  if (words[1] === "task" && start > 0) return words.slice(start + 1);
  if (words[0] === "deno" && words[1] === "task") return words.slice(2); // an init project's task
  throw new Error(`Not a magi-tools command: ${text}`);
}

Deno.test("docs commands: the long-running ones parse with the CLI's own argument parser", () => {
  for (const [text, check] of Object.entries(COMMANDS)) {
    if (!("parse" in check)) continue;
    const argv = cliArgv(text);
    const parsed = parseCli(argv);
    assert.equal(parsed.command, argv[0], text);
  }
});

Deno.test("docs commands: each usage synopsis names a command whose --help parses", () => {
  const synopsis =
    /^(?:deno task (?:-q )?start|npx --yes deno@2\.9\.6 task start|magi-tools) ([a-z]+)(?: |$)/;
  let seen = 0;
  for (const file of DOCS) {
    for (const block of blocks(file)) {
      for (const { n, text } of block.lines) {
        const match = synopsis.exec(text);
        if (match === null || /^magi-tools( [a-z]+)?:/.test(text)) continue;
        seen++;
        const parsed = parseCli([match[1]!, "--help"]);
        assert.equal(parsed.command, "help", `${file}:${n}: ${text}`);
        if (parsed.command === "help" && match[1] !== "help") {
          assert.equal(parsed.topic, match[1], `${file}:${n}: ${text}`);
        }
      }
    }
  }
  assert.ok(seen >= 10, `only ${seen} synopsis lines found: is the pattern still right?`);
});

const PATH = `${Deno.execPath().replace(/\/[^/]*$/, "")}:${Deno.env.get("PATH") ?? ""}`;

/** Run `text` with bash in `cwd`, 90 s at most; resolves with its exit code and output. */
async function runShell(
  text: string,
  cwd: string,
  stdin: string | undefined,
  home: string,
): Promise<{ code: number; output: string }> {
  // `npx --yes deno@2.9.6` is this Deno release (checked below), which needs no download.
  const script = text.replaceAll("npx --yes deno@2.9.6 ", "deno ");
  const child = new Deno.Command("bash", {
    args: ["-c", script],
    cwd,
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", PATH, MC_HOME: home, MAGI_CODE_AGENT: REFERENCE_AGENT },
    signal: AbortSignal.timeout(90_000),
  }).spawn();
  if (stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(stdin));
    await writer.close();
  }
  const output = await child.output();
  const decoder = new TextDecoder();
  return {
    code: output.code,
    output: `stdout:\n${decoder.decode(output.stdout)}\nstderr:\n${decoder.decode(output.stderr)}`,
  };
}

Deno.test({
  name: "docs commands: the runnable ones run offline as written and exit 0 (init project in a " +
    "temporary directory)",
  async fn(t) {
    assert.equal(Deno.version.deno, "2.9.6", "the docs' npx --yes deno@2.9.6 is this release");
    const parent = await Deno.makeTempDir({ prefix: "magi-tools-docs-" });
    const project = `${parent}/my-tools`;
    const home = `${parent}/home`;
    await Deno.mkdir(home);
    try {
      // The init entry first: the project's commands run in what it makes.
      const order = Object.entries(COMMANDS).filter(([, check]) => "run" in check)
        .sort(([a], [b]) => Number(b === INIT) - Number(a === INIT));
      for (const [text, check] of order) {
        if (!("run" in check)) continue;
        await t.step(text, async () => {
          const script = check.run.rewrite?.(text, project) ?? text;
          const cwd = check.run.cwd === "root" ? ROOT_DIR : project;
          const result = await runShell(script, cwd, check.run.stdin, home);
          assert.equal(result.code, 0, result.output);
        });
      }
    } finally {
      await Deno.remove(parent, { recursive: true });
    }
  },
});

Deno.test("docs: cli.md and mcp.md say what `deno task start` grants, as deno.json does", () => {
  const task = JSON.parse(Deno.readTextFileSync(`${ROOT}deno.json`)).tasks.start as string;
  const granted = task.split(" ").filter((word) => word.startsWith("--allow-")).sort();
  for (const file of ["docs/cli.md", "docs/mcp.md"]) {
    const text = Deno.readTextFileSync(`${ROOT}${file}`).replace(/\s+/g, " ");
    const said = /`(?:deno task )?start` grants `([^`]+)`/.exec(text);
    assert.ok(said !== null, `${file} no longer says what deno task start grants`);
    assert.deepEqual(said[1]!.split(" ").sort(), granted, file);
  }
});

Deno.test("docs: openapi.md shows the `tools` output as the command prints it", async () => {
  const command =
    "TICKETS_TOKEN=x npx --yes deno@2.9.6 task start tools --config examples/openapi/magi-tools.jsonc --tools examples/openapi/tools";
  const lines = Deno.readTextFileSync(`${ROOT}docs/openapi.md`).split("\n");
  const at = lines.findIndex((line) => line === command);
  assert.ok(at > 0, "the command is no longer in docs/openapi.md");
  const open = lines.indexOf("```", at + 2);
  const close = lines.indexOf("```", open + 1);
  const shown = lines.slice(open + 1, close);
  const home = await Deno.makeTempDir({ prefix: "magi-tools-docs-" });
  try {
    const result = await runShell(command, ROOT_DIR, undefined, home);
    assert.equal(result.code, 0, result.output);
    const printed = result.output.slice("stdout:\n".length, result.output.indexOf("\nstderr:\n"))
      .trimEnd().split("\n")
      // Printed only where Landlock is missing; the docs show a machine that has it.
      .filter((line) => !line.startsWith("kernel sandbox unavailable:"))
      // The docs shorten tool ids to 8 hex digits and an ellipsis.
      .map((line) => line.replace(/\b([0-9a-f]{8})[0-9a-f]{56}\b/, "$1…"));
    assert.deepEqual(shown, printed);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
