/**
 * Checks that keep the code's shape (docs/architecture.md), over the module graph that
 * `deno info --json` reports for every TypeScript file under `src/`:
 *
 * - no import cycle among `src/` modules, counting type-only imports too (a dynamic `import()`
 *   is a deliberate lazy edge and does not count);
 * - every folder under `src/` that holds TypeScript files has a `mod.ts` saying what it owns;
 * - a file whose name starts with `_` is internal to its folder: only files in that folder (or
 *   its subfolders, which are part of the same module) import it;
 * - nothing outside `src/cli/` imports it, statically or dynamically (only `cli.ts`, the tests
 *   of the CLI, and the start of `main` under `import.meta.main` in `mod.ts`): the CLI is the top
 *   floor, parsing argv and calling the layers below;
 * - the layers of docs/architecture.md: a top-level folder of `src/` imports only the folders
 *   before it in {@link LAYERS} (the reference backend only those in {@link BACKEND_USES}). A new
 *   top-level folder is checked once it is added to the list.
 */
import assert from "node:assert/strict";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

import { root as ROOT } from "./_kit/mod.ts";
const SRC = join(ROOT, "src");

/** One import of a module: its target file and whether it exists only for types. */
interface Edge {
  to: string;
  typeOnly: boolean;
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

/** The static import graph among `src/` files: file path → its imports of `src/` files. */
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
        if (dependency.isDynamic) continue;
        const target = dependency.code?.specifier ?? dependency.type?.specifier;
        if (target === undefined || !target.startsWith("file:")) continue;
        const to = fileURLToPath(target);
        if (!to.startsWith(SRC + "/")) continue;
        edges.push({ to, typeOnly: dependency.code?.specifier === undefined });
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
  "runtime",
  "telemetry",
  "transport",
  "client",
  "summary",
  "host",
  "openapi",
  "config",
  "mcp",
  "run",
  "batch",
  "report",
  "inspect",
  "cli",
];
/** What the reference backend may import: it reuses protocol and transport, never client or host. */
const BACKEND_USES = ["async", "protocol", "transport"];

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
    for (const { to } of edges) {
      const theirs = layerOf(to);
      if (theirs === mine || !allowed.has(theirs) || may.includes(theirs)) continue;
      found.push(`${relative(ROOT, from)} (${mine}) imports ${relative(ROOT, to)} (${theirs})`);
    }
  }
  return found;
}

const show = (cycle: string[]) => cycle.map((file) => relative(ROOT, file)).join(" -> ");

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

Deno.test("src/ has no import cycle at run time", async () => {
  const found = cycles(await graph(), false);
  assert.deepEqual(found.map(show), [], "import cycles (runtime imports)");
});

Deno.test("src/ has no import cycle counting type-only imports", async () => {
  const found = cycles(await graph(), true);
  assert.deepEqual(found.map(show), [], "import cycles (including import type)");
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

Deno.test("layerViolations() allows only earlier layers (self-check)", () => {
  const at = (path: string) => join(SRC, path);
  const fake = new Map<string, Edge[]>([
    [at("client/a.ts"), [{ to: at("protocol/b.ts"), typeOnly: false }]],
    [at("protocol/b.ts"), [{ to: at("client/a.ts"), typeOnly: true }]],
    [at("reference_backend/c.ts"), [{ to: at("host/d.ts"), typeOnly: false }]],
  ]);
  assert.deepEqual(layerViolations(fake), [
    "src/protocol/b.ts (protocol) imports src/client/a.ts (client)",
    "src/reference_backend/c.ts (reference_backend) imports src/host/d.ts (host)",
  ]);
});

Deno.test("src/ folders import only the layers below them (docs/architecture.md)", async () => {
  assert.deepEqual(layerViolations(await graph()), [], "imports against the layering");
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
