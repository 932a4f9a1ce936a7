/**
 * The npm package smoke test (run by `npm-build.ts` after a build): pack
 * `npm/`, install the tarball into a scratch folder, and under Node.js run
 * one turn of a `.mjs` tool against the reference backend (started with
 * Deno) through the package's `magi-tools` bin, and check that without a
 * backend it asks for `--agent`; then use the library API
 * from Node (`defineTool`, `LIMITS`). Throws with the reason on any failure.
 *
 * @module
 */

import { dirname, join } from "node:path";

/** Options of {@link smokeTest}. */
export interface SmokeOptions {
  /** The built package folder (`npm/`). */
  packageDir: string;
  /** The repository root (for the reference backend). */
  root: string;
  /** Keep the scratch folder (for debugging); default false. */
  keep?: boolean;
}

/** What the smoke run observed, for tests. */
export interface SmokeReport {
  /** The bin's exit code. */
  code: number;
  /** Parsed NDJSON summary records. */
  records: Record<string, unknown>[];
  /** `node --version`. */
  nodeVersion: string;
}

const TOOL = `import { z } from "zod";
import { defineTool } from "@magi/tools";

export default defineTool({
  name: "shout",
  description: "Return the given text in upper case.",
  input: z.strictObject({ text: z.string().describe("Text to shout") }),
  effect: "read",
  // No isolation declared: Node.js has no process sandbox, so the executor
  // runs every tool inline by itself.
  run: ({ text }, ctx) => {
    ctx.signal.throwIfAborted();
    return text.toUpperCase() + "!";
  },
});
`;

const GUARDED_TOOL = `import { z } from "zod";
import { defineTool } from "@magi/tools";

export default defineTool({
  name: "weather",
  description: "Fetch the weather from a local API.",
  input: z.strictObject({}),
  effect: "read",
  permissions: { net: ["127.0.0.1:8799"] },
  run: () => "sunny",
});
`;

const ONE_TURN = `import { writeFileSync } from "node:fs";
import { runOneTurn } from "@magi/tools";
const { exitCode, records } = await runOneTurn({
  prompt: 'shout {"text":"hi"}',
  toolDirs: ["tools"],
  agent: process.env.AGENT,
});
writeFileSync(process.env.OUT, JSON.stringify({ exitCode, types: records.map((r) => r.type) }));
`;

const TS_TOOL = `export default 1 as number;
`;

const LIBRARY_CHECK = `import { defineTool } from "@magi/tools";
import { main } from "@magi/tools/cli";
import { LIMITS, parseParams } from "@magi/tools/protocol";
import { parseRecord } from "@magi/tools/records";
import { z } from "zod";
const tool = defineTool({
  name: "noop", description: "Nothing.", input: z.object({}), effect: "read", run: () => "",
});
if (tool.name !== "noop" || LIMITS.input_frame_bytes !== 65536) throw new Error("library API");
if (typeof main !== "function") throw new Error("cli API");
const warning = parseRecord(
  '{"type":"host.warning","ts":"2026-01-02T03:04:05Z","v":1,"code":"x","message":"m"}',
);
if (warning.type !== "host.warning") throw new Error("records API");
if (parseParams("turn.start", { session_id: "s1", prompt: "hi" }).prompt !== "hi") {
  throw new Error("protocol API");
}
console.log("library ok");
`;

const TYPED_CONSUMER = `import { z } from "zod";
import { defineTool, LocalAgentClient, type SummaryRecord } from "@magi/tools";
import { main } from "@magi/tools/cli";
import { type InitializeResult, LIMITS } from "@magi/tools/protocol";
import type { ToolResultRecord } from "@magi/tools/records";

export const tool = defineTool({
  name: "typed",
  description: "Typed arguments.",
  input: z.strictObject({ count: z.number() }),
  effect: "read",
  run: ({ count }) => count + 1,
});
const bound: number = LIMITS.input_frame_bytes;
const exit: Promise<number> = main(["--version"]);
export type Init = Awaited<ReturnType<LocalAgentClient["initialize"]>>;
const frameBytes = (init: Init): number => init.limits.input_frame_bytes;
const kind = (record: SummaryRecord): string => record.type;
const outcome = (record: ToolResultRecord): string => record.outcome;
const same = (init: Init): InitializeResult => init;
export { bound, exit, frameBytes, kind, outcome, same };
`;

/** Type-check a TypeScript consumer of the installed package against its `.d.ts` files. */
async function typeCheckConsumer(app: string): Promise<void> {
  const { default: ts } = await import("npm:typescript@^5.9");
  const file = join(app, "consumer.ts");
  await Deno.writeTextFile(file, TYPED_CONSUMER);
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
    types: [],
  });
  const diagnostics = ts.getPreEmitDiagnostics(program).filter((d) => d.file?.fileName === file);
  if (diagnostics.length > 0) {
    const text = diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    throw new Error(`Smoke test: the package's types do not check: ${text.join("; ")}`);
  }
}

async function run(
  command: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string> },
): Promise<{ code: number; stdout: string; stderr: string }> {
  const output = await new Deno.Command(command, {
    args,
    cwd: options.cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    ...(options.env === undefined ? {} : { env: options.env }),
  }).output();
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}

async function mustRun(
  command: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string> },
): Promise<string> {
  const result = await run(command, args, options);
  if (result.code !== 0) {
    throw new Error(
      `${command} ${args.join(" ")} exited ${result.code}: ${result.stderr.trim().slice(-2000)}`,
    );
  }
  return result.stdout;
}

function expect(condition: boolean, what: string, records: unknown[]): void {
  if (!condition) {
    throw new Error(`Smoke test: ${what}; records: ${JSON.stringify(records).slice(0, 3000)}`);
  }
}

/** Pack, install and run the package under Node.js. */
export async function smokeTest(options: SmokeOptions): Promise<SmokeReport> {
  const scratch = await Deno.makeTempDir({ prefix: "magi-tools-npm-" });
  try {
    const nodeVersion = (await mustRun("node", ["--version"], { cwd: scratch })).trim();
    const packed = await mustRun("npm", ["pack", "--silent", "--pack-destination", scratch], {
      cwd: options.packageDir,
    });
    const tarball = join(scratch, packed.trim().split("\n").pop()!.trim());
    const app = join(scratch, "app");
    await Deno.mkdir(join(app, "tools"), { recursive: true });
    await Deno.writeTextFile(
      join(app, "package.json"),
      JSON.stringify({ name: "smoke-app", private: true, type: "module" }),
    );
    await mustRun("npm", ["install", "--no-audit", "--no-fund", "--silent", tarball], {
      cwd: app,
    });
    await Deno.writeTextFile(join(app, "tools", "shout.mjs"), TOOL);
    await Deno.writeTextFile(join(app, "check.mjs"), LIBRARY_CHECK);
    const library = await mustRun("node", ["check.mjs"], { cwd: app });
    if (library.trim() !== "library ok") throw new Error(`Library check printed: ${library}`);
    await typeCheckConsumer(app);

    const backend = join(options.root, "src/reference_backend/main.ts");
    const agent = `${JSON.stringify(Deno.execPath())} run -A ${
      JSON.stringify(backend)
    } serve --stdio`;
    const mcHome = join(scratch, "mc_home");
    const result = await run(
      "node",
      ["node_modules/.bin/magi-tools", "run", "--agent", agent, 'shout {"text":"hello"}'],
      { cwd: app, env: { MC_HOME: mcHome, NO_COLOR: "1" } },
    );
    const records = result.stdout.split("\n").filter((line) => line !== "").map((line) =>
      JSON.parse(line) as Record<string, unknown>
    );
    const find = (type: string) => records.find((record) => record.type === type);
    const ready = find("host.ready");
    expect(result.code === 0, `exit code ${result.code} (stderr: ${result.stderr})`, records);
    expect(ready !== undefined, "no host.ready", records);
    expect(
      JSON.stringify(ready?.tools).includes('"name":"shout"'),
      "host.ready does not list the shout tool",
      records,
    );
    expect(
      ready?.runtime === "node" && ready?.isolation === "inline",
      'host.ready does not say runtime "node", isolation "inline"',
      records,
    );
    expect(
      JSON.stringify(ready?.tools).includes('"sandbox":"none"'),
      'host.ready does not give the shout tool the level "none" (it runs inline)',
      records,
    );
    expect(find("tool.call")?.name === "shout", "no tool.call of shout", records);
    const toolResult = find("tool.result");
    expect(toolResult?.outcome === "success", "tool.result is not a success", records);
    expect(
      records.some((r) => r.type === "message" && String(r.text).includes("HELLO!")),
      "the model did not see the tool's answer HELLO!",
      records,
    );
    const finished = find("turn.finished");
    expect(finished?.outcome === "completed", "turn.finished is not completed", records);
    // Without --agent, MAGI_CODE_AGENT or magi-code on PATH the CLI exits 3 (no backend),
    // nothing on stdout, asking for --agent; it never falls back to a scripted model.
    const nodeDir = dirname(
      (await mustRun("node", ["-p", "process.execPath"], { cwd: app })).trim(),
    );
    const noAgent = await run("node", ["node_modules/.bin/magi-tools", "run", "hello"], {
      cwd: app,
      env: { MC_HOME: mcHome, NO_COLOR: "1", PATH: nodeDir, MAGI_CODE_AGENT: "" },
    });
    expect(
      noAgent.code === 3 && noAgent.stdout === "" && /pass --agent/.test(noAgent.stderr),
      `without a backend: exit ${noAgent.code}, stdout ${JSON.stringify(noAgent.stdout)}, stderr ${
        JSON.stringify(noAgent.stderr)
      }`,
      [],
    );
    // The library's runOneTurn under Node.js: the records come back, nothing on stdout.
    await Deno.writeTextFile(join(app, "one_turn.mjs"), ONE_TURN);
    const oneTurn = await run("node", ["one_turn.mjs"], {
      cwd: app,
      env: { MC_HOME: mcHome, NO_COLOR: "1", AGENT: agent, OUT: join(scratch, "one_turn.json") },
    });
    const turn = oneTurn.code === 0
      ? JSON.parse(await Deno.readTextFile(join(scratch, "one_turn.json")))
      : null;
    expect(
      oneTurn.code === 0 && oneTurn.stdout === "" && turn?.exitCode === 0 &&
        turn?.types.includes("tool.result") && turn?.types.at(-1) === "turn.finished",
      `runOneTurn under Node.js: exit ${oneTurn.code}, stdout ${
        JSON.stringify(oneTurn.stdout)
      }, stderr ${JSON.stringify(oneTurn.stderr.slice(-2000))}, result ${JSON.stringify(turn)}`,
      [],
    );
    // tools on Node.js: no sandbox is shown that is not there, and declared permissions get
    // one warning on stderr.
    await Deno.mkdir(join(app, "guarded"));
    await Deno.writeTextFile(join(app, "guarded", "weather.mjs"), GUARDED_TOOL);
    const listing = await run("node", [
      "node_modules/.bin/magi-tools",
      "tools",
      "--tools",
      "guarded",
    ], {
      cwd: app,
      env: { NO_COLOR: "1" },
    });
    expect(
      listing.code === 0 &&
        /\tinline \(permissions not enforced on Node\.js\); net=127\.0\.0\.1:8799\tnone$/m.test(
          listing.stdout,
        ) &&
        listing.stderr.split("\n").filter((line) => line.includes("are not enforced")).length === 1,
      `tools under Node.js: exit ${listing.code}, stdout ${
        JSON.stringify(listing.stdout)
      }, stderr ${JSON.stringify(listing.stderr)}`,
      [],
    );
    // A TypeScript tool module on Node.js: the error says Node needs .js/.mjs.
    await Deno.mkdir(join(app, "ts_tools"));
    await Deno.writeTextFile(join(app, "ts_tools", "typed.ts"), TS_TOOL);
    const typed = await run("node", [
      "node_modules/.bin/magi-tools",
      "tools",
      "--tools",
      "ts_tools",
    ], {
      cwd: app,
      env: { NO_COLOR: "1" },
    });
    expect(
      typed.code === 2 &&
        /typed\.ts: Node\.js loads tool modules as JavaScript: .*\.mjs/.test(typed.stderr),
      `a .ts tool under Node.js: exit ${typed.code}, stderr ${JSON.stringify(typed.stderr)}`,
      [],
    );
    // The optional features load under Node.js once their optional peer dependencies are
    // installed: an OpenAPI source (the reference parser, YAML, the validator) and the MCP
    // server (the SDK).
    await Deno.mkdir(join(app, "api"));
    await Deno.copyFile(
      join(options.root, "examples", "openapi", "tickets.yaml"),
      join(app, "api", "tickets.yaml"),
    );
    await Deno.writeTextFile(
      join(app, "api", "magi-tools.jsonc"),
      JSON.stringify({ openapi: { tickets: { spec: "tickets.yaml", include: ["getTicket"] } } }),
    );
    const listApi = () =>
      run("node", [
        "node_modules/.bin/magi-tools",
        "tools",
        "--config",
        "api/magi-tools.jsonc",
        "--tools",
        "guarded",
      ], { cwd: app, env: { NO_COLOR: "1" } });
    // The features' packages are optional peers, not installed with the package: exit 2 naming
    // the command that installs them; then install them as the message says.
    const missing = await listApi();
    expect(
      missing.code === 2 &&
        /OpenAPI needs the npm packages .*: run `npm install '@apidevtools\/json-schema-ref-parser@\^16[^`]*`/
          .test(missing.stderr),
      `an OpenAPI source without its packages: exit ${missing.code}, stderr ${
        JSON.stringify(missing.stderr.slice(-2000))
      }`,
      [],
    );
    const peers = JSON.parse(
      await Deno.readTextFile(join(app, "node_modules", "@magi", "tools", "package.json")),
    ).peerDependencies as Record<string, string>;
    await mustRun("npm", [
      "install",
      "--no-audit",
      "--no-fund",
      "--silent",
      ...Object.entries(peers).map(([name, range]) => `${name}@${range}`),
    ], { cwd: app });
    const openapi = await listApi();
    expect(
      openapi.code === 0 && /^getTicket\tread\t/m.test(openapi.stdout),
      `an OpenAPI source under Node.js: exit ${openapi.code}, stdout ${
        JSON.stringify(openapi.stdout)
      }, stderr ${JSON.stringify(openapi.stderr.slice(-2000))}`,
      [],
    );
    // stdin is empty: the MCP server loads, serves nothing and exits 0.
    const mcp = await run("node", [
      "node_modules/.bin/magi-tools",
      "mcp",
      "--no-config",
      "--tools",
      "guarded",
    ], { cwd: app, env: { NO_COLOR: "1" } });
    expect(
      mcp.code === 0,
      `mcp under Node.js: exit ${mcp.code}, stderr ${JSON.stringify(mcp.stderr.slice(-2000))}`,
      [],
    );
    return { code: result.code, records, nodeVersion };
  } finally {
    if (!options.keep) await Deno.remove(scratch, { recursive: true }).catch(() => {});
  }
}
