/**
 * Checks that keep the code's shape (docs/architecture.md), over the module graph that
 * `deno info --json` reports for every TypeScript file under `src/`:
 *
 * - no import cycle among `src/` modules, counting type-only imports and dynamic `import()`s too
 *   (a lazy edge still ties two modules together), but for the circles of {@link KNOWN_CYCLES};
 * - every folder under `src/` that holds TypeScript files has a `mod.ts` saying what it owns;
 * - a file whose name starts with `_` is internal to its folder: only files in that folder (or
 *   its subfolders, which are part of the same module) import it;
 * - nothing outside `src/cli/` imports it, statically or dynamically (only `cli.ts`, the tests
 *   of the CLI, and the start of `main` under `import.meta.main` in `mod.ts`): the CLI is the top
 *   floor, parsing argv and calling the layers below;
 * - the layers of docs/architecture.md: a top-level folder of `src/` imports, statically or
 *   dynamically, only the folders before it in {@link LAYERS} (the reference backend only those in
 *   {@link BACKEND_USES}), but for the arrows of {@link KNOWN_BACK_ARROWS}. A new top-level folder
 *   is checked once it is added to the list;
 * - the size rule, over all of `src/`: no file over 400 lines, no function over 100 (measured by
 *   `tests/_kit/shape.ts`), but for the files and functions of {@link LONG_FILES} and
 *   {@link LONG_FUNCTIONS}.
 *
 * Each allow-list names today's offenders with a reason; an offender not listed fails, and so does
 * a listed one that is gone, so an entry is struck as soon as its fix lands (issue 34).
 */
import assert from "node:assert/strict";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { type FileShape, measureFile, measureSource } from "./_kit/shape.ts";

import { root as ROOT } from "./_kit/mod.ts";
const SRC = join(ROOT, "src");

/** One import of a module: its target file, whether it exists only for types, whether `import()`. */
interface Edge {
  to: string;
  typeOnly: boolean;
  dynamic?: boolean;
}

function walk(dir: string): string[] {
  const files: string[] = [];
  for (const entry of Deno.readDirSync(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) files.push(...walk(path));
    else if (entry.isFile && /\.(m?ts|tsx)$/.test(entry.name)) files.push(path);
  }
  return files.sort();
}

interface InfoDependency {
  code?: { specifier?: string };
  type?: { specifier?: string };
  isDynamic?: boolean;
}
interface InfoModule {
  specifier: string;
  dependencies?: InfoDependency[];
}

/** The import graph among `src/` files (dynamic imports included): file → its imports of `src/`. */
async function srcGraph(): Promise<Map<string, Edge[]>> {
  const files = walk(SRC);
  const dir = await Deno.makeTempDir({ prefix: "magi-tools-architecture-" });
  try {
    const root = join(dir, "all.ts");
    const lines = files.map((file) => `import ${JSON.stringify(pathToFileURL(file).href)};`);
    await Deno.writeTextFile(root, `${lines.join("\n")}\n`);
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", "--config", join(ROOT, "dev", "deno.json"), root],
      cwd: ROOT,
      env: { NO_COLOR: "1" },
      stdin: "null",
    }).output();
    const stderr = new TextDecoder().decode(output.stderr);
    assert.equal(output.code, 0, `deno info failed: ${stderr}`);
    const info = JSON.parse(new TextDecoder().decode(output.stdout)) as { modules: InfoModule[] };
    const graph = new Map<string, Edge[]>();
    for (const module of info.modules) {
      if (!module.specifier.startsWith("file:")) continue;
      const from = fileURLToPath(module.specifier);
      if (!from.startsWith(SRC + "/")) continue;
      const edges: Edge[] = [];
      for (const dependency of module.dependencies ?? []) {
        const target = dependency.code?.specifier ?? dependency.type?.specifier;
        if (target === undefined || !target.startsWith("file:")) continue;
        const to = fileURLToPath(target);
        if (!to.startsWith(SRC + "/")) continue;
        const typeOnly = dependency.code?.specifier === undefined;
        edges.push({ to, typeOnly, dynamic: dependency.isDynamic === true });
      }
      graph.set(from, edges);
    }
    assert.equal(graph.size, files.length, "deno info reports every src/ file");
    return graph;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The cycles of `graph` (each as a list of files, first repeated at the end); [] if none. */
function cycles(graph: Map<string, Edge[]>, withTypes: boolean): string[][] {
  const found: string[][] = [];
  const state = new Map<string, "active" | "done">();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, "active");
    stack.push(node);
    for (const edge of graph.get(node) ?? []) {
      if (edge.typeOnly && !withTypes) continue;
      const seen = state.get(edge.to);
      if (seen === "active") found.push([...stack.slice(stack.indexOf(edge.to)), edge.to]);
      else if (seen === undefined) visit(edge.to);
    }
    stack.pop();
    state.set(node, "done");
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return found;
}

/** The layers, bottom first: each folder may import only the folders before it. */
const LAYERS = [
  "errors",
  "async",
  "security",
  "protocol",
  "text",
  "runtime",
  "host",
  "telemetry",
  "transport",
  "client",
  "summary",
  "tool",
  "sandbox",
  "toolset",
  "call",
  "openapi",
  "config",
  "mcp",
  "sources",
  "run",
  "batch",
  "report",
  "inspect",
  "cli",
];
/**
 * What the reference backend may import: it reuses protocol, transport and the text helpers
 * (which import only protocol), never client or host.
 */
const BACKEND_USES = ["async", "protocol", "text", "transport"];

/** The top-level `src/` folder of `file`. */
function layerOf(file: string): string {
  return relative(SRC, file).split("/")[0]!;
}

/** Imports that go against {@link LAYERS} / {@link BACKEND_USES}, as messages. */
function layerViolations(graph: Map<string, Edge[]>): string[] {
  const allowed = new Map<string, readonly string[]>(
    LAYERS.map((layer, index) => [layer, LAYERS.slice(0, index)]),
  );
  allowed.set("reference_backend", BACKEND_USES);
  const found: string[] = [];
  for (const [from, edges] of graph) {
    const mine = layerOf(from);
    const may = allowed.get(mine);
    if (may === undefined) continue;
    for (const { to, dynamic } of edges) {
      const theirs = layerOf(to);
      if (theirs === mine || !allowed.has(theirs) || may.includes(theirs)) continue;
      const how = dynamic === true ? " through import()" : "";
      found.push(
        `${relative(ROOT, from)} (${mine}) imports ${relative(ROOT, to)} (${theirs})${how}`,
      );
    }
  }
  return found;
}

/** A cycle as text, started at its first file in sort order so each circle has one spelling. */
function show(cycle: string[]): string {
  const ring = cycle.slice(0, -1).map((file) => relative(ROOT, file));
  const first = ring.indexOf([...ring].sort()[0]!);
  const turned = [...ring.slice(first), ...ring.slice(0, first)];
  return [...turned, turned[0]].join(" -> ");
}

/**
 * The import circles of today, each with the reason it is still here (issue 34 removes them). A
 * circle not listed fails the cycle checks, and so does a listed one no longer found: strike it.
 */
const KNOWN_CYCLES: Readonly<Record<string, string>> = {};

/** `found` against an allow-list: the entries not listed, and the listed ones not found. */
function againstList(
  found: readonly string[],
  known: Readonly<Record<string, string>>,
): { unlisted: string[]; gone: string[] } {
  return {
    unlisted: [...new Set(found)].filter((entry) => !Object.hasOwn(known, entry)),
    gone: Object.keys(known).filter((entry) => !found.includes(entry)),
  };
}

let built: Promise<Map<string, Edge[]>> | undefined;
/** The graph, built once for all tests (on first use, so a failure belongs to a test). */
const graph = () => built ??= srcGraph();

Deno.test("cycles() finds a cycle and tells type-only edges apart (self-check)", () => {
  const fake = new Map<string, Edge[]>([
    ["/a.ts", [{ to: "/b.ts", typeOnly: false }]],
    ["/b.ts", [{ to: "/a.ts", typeOnly: true }]],
  ]);
  assert.deepEqual(cycles(fake, false), []);
  assert.deepEqual(cycles(fake, true), [["/a.ts", "/b.ts", "/a.ts"]]);
});

Deno.test("cycles() counts a dynamic import(); show() spells a circle one way (self-check)", () => {
  const at = (path: string) => join(ROOT, path);
  const fake = new Map<string, Edge[]>([
    [at("src/x/start.ts"), [{ to: at("src/x/lazy.ts"), typeOnly: false, dynamic: true }]],
    [at("src/x/lazy.ts"), [{ to: at("src/x/start.ts"), typeOnly: false }]],
  ]);
  const found = cycles(fake, false).map(show);
  assert.deepEqual(found, ["src/x/lazy.ts -> src/x/start.ts -> src/x/lazy.ts"]);
  assert.deepEqual(againstList(found, {}), { unlisted: found, gone: [] });
  assert.deepEqual(againstList([], { [found[0]!]: "listed" }), { unlisted: [], gone: found });
  assert.deepEqual(againstList(found, { [found[0]!]: "listed" }), { unlisted: [], gone: [] });
});

Deno.test("src/ has no import cycle at run time (import() included)", async () => {
  const { unlisted, gone } = againstList(cycles(await graph(), false).map(show), KNOWN_CYCLES);
  assert.deepEqual(unlisted, [], "import cycles (runtime imports)");
  assert.deepEqual(gone, [], "KNOWN_CYCLES entries no longer found: strike them");
});

Deno.test("src/ has no import cycle counting type-only imports", async () => {
  const { unlisted, gone } = againstList(cycles(await graph(), true).map(show), KNOWN_CYCLES);
  assert.deepEqual(unlisted, [], "import cycles (including import type)");
  assert.deepEqual(gone, [], "KNOWN_CYCLES entries no longer found: strike them");
});

Deno.test("every src/ folder with TypeScript files has a mod.ts", () => {
  const folders = new Set(walk(SRC).map((file) => dirname(file)));
  folders.delete(SRC);
  const missing = [...folders].filter((folder) => !walk(folder).includes(join(folder, "mod.ts")))
    .map((folder) => relative(ROOT, folder));
  assert.deepEqual(missing, [], "folders without mod.ts");
});

/** Imports of `_` files from outside their folder (and its subfolders), as messages. */
function internalLeaks(graph: Map<string, Edge[]>): string[] {
  const leaks: string[] = [];
  for (const [from, edges] of graph) {
    for (const { to } of edges) {
      if (!to.split("/").at(-1)!.startsWith("_")) continue;
      const home = dirname(to);
      if (dirname(from) !== home && !from.startsWith(home + "/")) {
        leaks.push(`${relative(ROOT, from)} imports ${relative(ROOT, to)}`);
      }
    }
  }
  return leaks;
}

Deno.test("internalLeaks() allows the folder and its subfolders, nothing else (self-check)", () => {
  const at = (path: string) => join(ROOT, path);
  const fake = new Map<string, Edge[]>([
    [at("src/a/x.ts"), [{ to: at("src/a/_private.ts"), typeOnly: false }]],
    [at("src/a/sub/y.ts"), [{ to: at("src/a/_private.ts"), typeOnly: false }]],
    [at("src/b/z.ts"), [{ to: at("src/a/_private.ts"), typeOnly: true }]],
  ]);
  assert.deepEqual(internalLeaks(fake), ["src/b/z.ts imports src/a/_private.ts"]);
});

Deno.test("files starting with _ are imported only from their own folder", async () => {
  assert.deepEqual(internalLeaks(await graph()), [], "internal files imported from another folder");
});

Deno.test("layerViolations() allows only earlier layers, import() included (self-check)", () => {
  const at = (path: string) => join(SRC, path);
  const fake = new Map<string, Edge[]>([
    [at("client/a.ts"), [{ to: at("protocol/b.ts"), typeOnly: false }]],
    [at("protocol/b.ts"), [{ to: at("client/a.ts"), typeOnly: true }]],
    [at("reference_backend/c.ts"), [{ to: at("client/a.ts"), typeOnly: false }]],
    [at("async/d.ts"), [{ to: at("transport/e.ts"), typeOnly: false, dynamic: true }]],
  ]);
  assert.deepEqual(layerViolations(fake), [
    "src/protocol/b.ts (protocol) imports src/client/a.ts (client)",
    "src/reference_backend/c.ts (reference_backend) imports src/client/a.ts (client)",
    "src/async/d.ts (async) imports src/transport/e.ts (transport) through import()",
  ]);
});

/**
 * Today's imports against {@link LAYERS}, each with the reason it is still here (issue 34 removes
 * them); one not listed fails, and so does a listed one no longer found: strike it.
 */
const KNOWN_BACK_ARROWS: Readonly<Record<string, string>> = {};

Deno.test("src/ folders import only the layers below them (docs/architecture.md)", async () => {
  const { unlisted, gone } = againstList(layerViolations(await graph()), KNOWN_BACK_ARROWS);
  assert.deepEqual(unlisted, [], "imports against the layering");
  assert.deepEqual(gone, [], "KNOWN_BACK_ARROWS entries no longer found: strike them");
});

/** Every relative module specifier in `text` (static, `export … from`, type-only and `import()`). */
function specifiers(text: string): { specifier: string; index: number }[] {
  const found: { specifier: string; index: number }[] = [];
  const pattern = /\b(?:from|import)\s*\(?\s*(["'])(\.{1,2}\/[^"'\n]+)\1/g;
  for (const match of text.matchAll(pattern)) {
    found.push({ specifier: match[2]!, index: match.index });
  }
  return found;
}

/** The one import of `src/cli/` allowed outside it: `mod.ts` starting `main` when run itself. */
function allowedStart(file: string, text: string, index: number, target: string): boolean {
  if (file !== join(ROOT, "mod.ts") || target !== join(SRC, "cli", "main.ts")) return false;
  const block = text.indexOf("if (import.meta.main) {");
  return block >= 0 && index > block && text.indexOf("\n}\n", block) > index;
}

/** Imports of `src/cli/` from `files` (none may, but `cli.ts`), as messages. */
function cliImports(files: ReadonlyMap<string, string>): string[] {
  const found: string[] = [];
  const cli = join(SRC, "cli") + "/";
  for (const [file, text] of files) {
    if (file.startsWith(cli) || file === join(ROOT, "cli.ts")) continue;
    for (const { specifier, index } of specifiers(text)) {
      const target = join(dirname(file), specifier);
      if (!target.startsWith(cli) || allowedStart(file, text, index, target)) continue;
      found.push(`${relative(ROOT, file)} imports ${relative(ROOT, target)}`);
    }
  }
  return found;
}

Deno.test("cliImports() finds static, type-only and dynamic imports of src/cli/ (self-check)", () => {
  const at = (path: string) => join(ROOT, path);
  const fake = new Map<string, string>([
    [at("src/batch/a.ts"), 'import type { X } from "../cli/args/mod.ts";'],
    [at("src/run/b.ts"), 'const m = await import("../cli/args/_flags.ts");'],
    [at("bench/c.ts"), 'export { y } from "../src/cli/commands/run.ts";'],
    [at("src/cli/d.ts"), 'import { z } from "./args/mod.ts";'],
    [at("cli.ts"), 'import { main } from "./src/cli/main.ts";'],
    [
      at("mod.ts"),
      'import "./src/cli/main.ts";\nif (import.meta.main) {\n  await import("./src/cli/main.ts");\n}\n',
    ],
  ]);
  assert.deepEqual(cliImports(fake), [
    "src/batch/a.ts imports src/cli/args/mod.ts",
    "src/run/b.ts imports src/cli/args/_flags.ts",
    "bench/c.ts imports src/cli/commands/run.ts",
    "mod.ts imports src/cli/main.ts",
  ]);
});

Deno.test("nothing outside src/cli/ imports it (the CLI is the top floor)", () => {
  const files = new Map<string, string>();
  const roots = ["src", "tools", "bench", "scripts", "examples"].map((dir) => join(ROOT, dir));
  for (const root of roots) {
    for (const file of walk(root)) files.set(file, Deno.readTextFileSync(file));
  }
  for (const entry of Deno.readDirSync(ROOT)) {
    if (entry.isFile && /\.(m?ts|tsx)$/.test(entry.name)) {
      files.set(join(ROOT, entry.name), Deno.readTextFileSync(join(ROOT, entry.name)));
    }
  }
  assert.ok(files.has(join(ROOT, "mod.ts")) && files.size > 100, "the files are found");
  assert.deepEqual(cliImports(files), [], "imports of src/cli/ from outside it");
});

const MAX_FILE_LINES = 400;
const MAX_FUNCTION_LINES = 100;

/**
 * The files over {@link MAX_FILE_LINES} today (plan of issue 34, §1.2), each with the reason it is
 * still here; a long file not listed fails, and so does a listed one back within the rule.
 */
const LONG_FILES: Readonly<Record<string, string>> = {};

/**
 * The functions over {@link MAX_FUNCTION_LINES} today (plan of issue 34, §1.2), as `file name`,
 * each with the reason it is still here; one not listed fails, and so does a listed one now short.
 */
const LONG_FUNCTIONS: Readonly<Record<string, string>> = {};

/** The files and functions of `shapes` over the limits, as `file` and `file name` entries. */
function overLimits(shapes: readonly FileShape[]): { files: string[]; functions: string[] } {
  const rel = (path: string) => relative(ROOT, path);
  return {
    files: shapes.filter((shape) => shape.lines > MAX_FILE_LINES).map((shape) => rel(shape.path)),
    functions: shapes.flatMap((shape) =>
      shape.functions.filter((f) => f.lines > MAX_FUNCTION_LINES).map((f) =>
        `${rel(shape.path)} ${f.name}`
      )
    ),
  };
}

let measured: Promise<FileShape[]> | undefined;
/** Every `src/` file measured, once for all tests. */
const shapes = () => measured ??= Promise.all(walk(SRC).map(measureFile));

Deno.test(`no file in src/ has more than ${MAX_FILE_LINES} lines`, async () => {
  const all = await shapes();
  assert.ok(all.length >= 300, `found the src/ files: ${all.length}`);
  const { unlisted, gone } = againstList(overLimits(all).files, LONG_FILES);
  assert.deepEqual(unlisted, [], `files over ${MAX_FILE_LINES} lines`);
  assert.deepEqual(gone, [], "LONG_FILES entries now within the rule (or moved): strike them");
});

Deno.test(`no function in src/ has more than ${MAX_FUNCTION_LINES} lines`, async () => {
  const all = await shapes();
  assert.ok(all.flatMap((s) => s.functions).length >= 2000, "found the src/ functions");
  const { unlisted, gone } = againstList(overLimits(all).functions, LONG_FUNCTIONS);
  assert.deepEqual(unlisted, [], `functions over ${MAX_FUNCTION_LINES} lines`);
  assert.deepEqual(gone, [], "LONG_FUNCTIONS entries now within the rule (or moved): strike them");
});

Deno.test("overLimits() finds a long file and a long function (self-check)", () => {
  const body = Array.from({ length: MAX_FUNCTION_LINES }, (_, i) => `  const v${i} = ${i};`);
  const long = ["function big() {", ...body, "}", ...body, ""].join("\n");
  const short = "function small() {\n  return 1;\n}\n";
  const found = overLimits([
    measureSource(join(SRC, "x/long.ts"), long),
    measureSource(join(SRC, "x/short.ts"), short),
  ]);
  assert.deepEqual(found, { files: [], functions: ["src/x/long.ts big"] });
  const longer = [long, ...body, ...body].join("\n");
  assert.deepEqual(overLimits([measureSource(join(SRC, "x/long.ts"), longer)]), {
    files: ["src/x/long.ts"],
    functions: ["src/x/long.ts big"],
  });
});

Deno.test("the measure counts declarations, methods and arrows from their first line to their last", () => {
  const source = [
    "export async function top(a: number) {", // 1
    "  const inner = (b: number) => {", // 2
    "    return b;", // 3
    "  };", // 4
    "  return inner(a);", // 5
    "}", // 6
    "class A {", // 7
    "  /** Doc comments before a method do not count. */", // 8
    "  get value(): number {", // 9
    "    return 1;", // 10
    "  }", // 11
    "  #run(): void {}", // 12
    "}", // 13
    "const f = function named() {", // 14
    "  return `{`;", // 15
    "};", // 16
    "", // (the final newline ends line 16)
  ].join("\n");
  const shape = measureSource("x.ts", source);
  assert.equal(shape.lines, 16);
  assert.deepEqual(
    shape.functions.map((f) => [f.name, f.at, f.lines]).sort(),
    [
      ["inner", "x.ts:2", 3],
      ["named", "x.ts:14", 3],
      ["run", "x.ts:12", 1],
      ["top", "x.ts:1", 6],
      ["value", "x.ts:9", 3],
    ],
  );
});

Deno.test("the measure finds a function over the limit (the check can fail)", () => {
  const body = Array.from({ length: MAX_FUNCTION_LINES }, (_, i) => `  const v${i} = ${i};`);
  const shape = measureSource("big.ts", ["function big() {", ...body, "}", ""].join("\n"));
  assert.deepEqual(shape.functions.map((f) => [f.name, f.lines]), [["big", 102]]);
});

/**
 * The files outside `src/runtime/` and `src/reference_backend/` whose code (comments aside) names
 * `Deno.*`, each with the reason (issue 34, commit 8): everything else reaches the runtime through
 * `src/runtime/mod.ts`, which the npm build swaps to Node.js. One not listed fails, and so does a
 * listed one that no longer names it.
 */
const DENO_USERS: Readonly<Record<string, string>> = {
  "src/sandbox/runner.ts": "runs in the tool's own `deno run` process, not the host (by design)",
  "src/sandbox/launcher.ts": "runs in the tool's own process before the runner (by design)",
  "src/sandbox/describe.ts": "runs in the zero-permission describe child (by design)",
  "src/sandbox/describe_setup.ts": "runs in the zero-permission describe child (by design)",
  "src/sandbox/host_inputs.ts":
    "Deno-only host side of the sandbox: synchronous realPath, lstat, readDir, readTextFile and read-permission queries",
  "src/sandbox/module_config.ts":
    "Deno-only host side of the sandbox: a synchronous stat while building the flags",
  "src/sandbox/tool_spawn.ts":
    "Deno-only host side of the sandbox: a synchronous stat and its NotFound/NotADirectory errors",
  "src/sandbox/containment.ts":
    "Deno-only host side of the sandbox: a synchronous stat and run-permission query per helper",
  "src/sandbox/process_runner.ts":
    "Deno-only host side of the sandbox: the env-permission query and the whole environment",
  "src/cli/commands/init_files.ts":
    "the text of the Deno test `init` writes into a new project, not code that runs here",
};

/** `source` without its comment lines and trailing `// …` comments (doc examples included). */
function codeLines(source: string): string[] {
  return source.split("\n")
    .filter((line) => !/^\s*(?:\*|\/\*|\/\/)/.test(line))
    .map((line) => line.replace(/\s\/\/\s.*$/, ""));
}

/** The files of `sources` (`[path relative to ROOT, text]`) whose code names `Deno.*`. */
function denoUsers(sources: ReadonlyArray<readonly [string, string]>): string[] {
  return sources
    .filter(([path]) => !/^src\/(?:runtime|reference_backend)\//.test(path))
    .filter(([, text]) => codeLines(text).some((line) => /\bDeno\.[a-zA-Z]/.test(line)))
    .map(([path]) => path);
}

Deno.test("denoUsers() counts code, not comments, outside src/runtime (self-check)", () => {
  const found = denoUsers([
    ["src/a/code.ts", "const cwd = Deno.cwd();\n"],
    [
      "src/a/comment.ts",
      "/**\n * Deno.cwd() in a doc example\n */\n// Deno.exit\nconst x = 1; // Deno.pid\n",
    ],
    ["src/runtime/deno/mod.ts", "export const cwd = () => Deno.cwd();\n"],
    ["src/a/typed.ts", "let server: Deno.HttpServer;\n"],
  ]);
  assert.deepEqual(found, ["src/a/code.ts", "src/a/typed.ts"]);
});

Deno.test("only the files of DENO_USERS name Deno.* outside src/runtime (issue 34)", async () => {
  const files = walk(SRC);
  const sources = await Promise.all(
    files.map(async (path) => [relative(ROOT, path), await Deno.readTextFile(path)] as const),
  );
  assert.ok(sources.length >= 300, `found the src/ files: ${sources.length}`);
  const { unlisted, gone } = againstList(denoUsers(sources), DENO_USERS);
  assert.deepEqual(unlisted, [], "files naming Deno.*: route them through src/runtime/mod.ts");
  assert.deepEqual(gone, [], "DENO_USERS entries that no longer name Deno.*: strike them");
});
