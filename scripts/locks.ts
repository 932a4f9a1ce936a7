/**
 * The three lockfiles and the module graphs they lock (docs/packages.md).
 *
 * `deno task` installs every npm package of the root `deno.json` import map and of the root
 * lockfile before it runs any task, and `deno run` installs every package of the lockfile it runs
 * with, not only its module graph's. So each lockfile holds exactly the npm packages of the code it
 * runs, and nothing more:
 *
 * - `deno.lock` (the root config's, frozen): the demo and the core runtime, {@link CORE_ENTRIES}
 *   (zod, jsonc-parser). Every command run from the checkout without `--lock` uses it, and so do
 *   the tool processes the host starts.
 * - `deno.full.lock`: the full CLI, {@link FULL_ENTRIES}: the core plus `src/mcp/` and
 *   `src/openapi/`, which the CLI loads through a non-literal dynamic import
 *   (`src/sources/features.ts`) and which pin their npm packages in `src/mcp/_sdk.ts` and
 *   `src/openapi/_deps.ts`. `deno task start` runs with `--lock=deno.full.lock`.
 * - `dev/deno.lock` (`dev/deno.json`'s, frozen): everything, {@link DEV_ENTRIES} plus the npm
 *   packages `dev/deno.json` maps (the MCP servers, the conformance suite, the OpenAPI
 *   examples, playwright-core). Tests, bench and the npm build run with `--config dev/deno.json`.
 *
 * A graph's packages are the closure of the npm packages its code imports (type-only imports
 * do not count: `deno run` does not load them, and a non-literal dynamic import is not in the
 * graph at all), with their dependencies.
 *
 * `deno run -A scripts/locks.ts` exits 1 and names, per lockfile, each package it lacks or holds
 * needlessly; `--write` rebuilds `deno.lock` and `deno.full.lock` from `dev/deno.lock` (same
 * versions), keeping only their graphs' packages.
 *
 * @module
 */

import { join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** The repository root (no trailing slash). */
export const ROOT: string = fileURLToPath(new URL("../", import.meta.url)).replace(/\/$/, "");

/** The dev config: maps every package (see the module doc). */
export const DEV_CONFIG: string = join(ROOT, "dev", "deno.json");

/** Files left out of the core graph: the optional features and the npm build's swap-in. */
const NOT_CORE = [
  /^src\/mcp\//,
  /^src\/openapi\/(?!_http_tool\.ts$)/,
  /^src\/sources\/_feature_import_npm\.ts$/,
];

/**
 * What runs with the root `deno.lock`: the library, the CLI without its optional features, the
 * reference backend, the tool processes (runner, describe child, the OpenAPI HTTP tool), the
 * example tools and these scripts. Directories stand for every `.ts` file under them.
 */
export const CORE_ENTRIES: readonly string[] = [
  "mod.ts",
  "cli.ts",
  "src/",
  "tools/",
  "scripts/",
  "examples/",
];

/** What runs with `deno.full.lock`: the core plus the optional features (MCP, OpenAPI). */
export const FULL_ENTRIES: readonly string[] = [
  ...CORE_ENTRIES,
  "src/mcp/mod.ts",
  "src/openapi/mod.ts",
];

/** What the demo runs: the CLI, the reference backend, the tool children and the example tools. */
export const DEMO_ENTRIES: readonly string[] = [
  "cli.ts",
  "scripts/demo_flags.ts",
  "src/reference_backend/main.ts",
  "src/sandbox/describe.ts",
  "src/sandbox/describe_setup.ts",
  "src/sandbox/runner.ts",
  "src/sandbox/launcher.ts",
  "tools/",
];

/** What runs with `dev/deno.lock` (besides the packages `dev/deno.json` maps). */
export const DEV_ENTRIES: readonly string[] = [
  "mod.ts",
  "cli.ts",
  "npm-build.ts",
  "src/",
  "tools/",
  "scripts/",
  "examples/",
  "tests/",
  "bench/",
];

/** One lockfile: where it is, what its graph is, and the config that resolves it. */
export interface LockSpec {
  /** Path relative to the root. */
  readonly path: string;
  /** Entries of its graph (files, or directories for every `.ts` under them). */
  readonly entries: readonly string[];
  /** Whether `dev/deno.json`'s mapped npm packages are roots too. */
  readonly mapped: boolean;
  /** Whether entries under src/mcp/ and src/openapi/ are left out (the core graph). */
  readonly core: boolean;
}

/** The three lockfiles (see the module doc). */
export const LOCKS: readonly LockSpec[] = [
  { path: "deno.lock", entries: CORE_ENTRIES, mapped: false, core: true },
  { path: "deno.full.lock", entries: FULL_ENTRIES, mapped: false, core: true },
  { path: "dev/deno.lock", entries: DEV_ENTRIES, mapped: true, core: false },
];

/** The `.ts` files of `entries` under `root` (directories walked), sorted. */
export function entryFiles(root: string, entries: readonly string[], core: boolean): string[] {
  const walk = (path: string): string[] => {
    if (!Deno.statSync(path).isDirectory) return [path];
    return [...Deno.readDirSync(path)].flatMap((entry) => {
      const child = join(path, entry.name);
      if (entry.isDirectory) return entry.name === "node_modules" ? [] : walk(child);
      return /\.(m?ts|tsx)$/.test(entry.name) ? [child] : [];
    });
  };
  const files = new Set<string>();
  for (const entry of entries) {
    const explicit = !entry.endsWith("/");
    for (const file of walk(join(root, entry))) {
      const rel = relative(root, file);
      if (!explicit && core && NOT_CORE.some((pattern) => pattern.test(rel))) continue;
      files.add(file);
    }
  }
  return [...files].sort();
}

/** The parts of `deno info --json` read here. */
export interface DenoInfo {
  /** The graph's modules. */
  modules?: {
    specifier: string;
    kind?: string;
    npmPackage?: string;
    dependencies?: {
      code?: { specifier?: string };
      npmPackage?: string;
    }[];
  }[];
  /** Specifier → the specifier it resolved to. */
  redirects?: Record<string, string>;
  /** Every npm package of the lockfile's snapshot, with its dependencies. */
  npmPackages?: Record<string, { dependencies?: string[] }>;
}

/**
 * The npm packages (lockfile keys, peer suffixes included) that the code of `info`'s graph
 * imports from the modules `roots` (specifiers), and their dependencies. Type-only imports are not
 * followed (`deno run` does not load them); `extraRoots` (lockfile keys) are added before the
 * closure is taken.
 */
export function codeClosure(
  info: DenoInfo,
  roots: Iterable<string>,
  extraRoots: Iterable<string> = [],
): Set<string> {
  const modules = new Map((info.modules ?? []).map((module) => [module.specifier, module]));
  const redirects = info.redirects ?? {};
  const resolve = (specifier: string) => {
    let current = specifier;
    for (let hops = 0; hops < 10 && redirects[current] !== undefined; hops++) {
      current = redirects[current]!;
    }
    return current;
  };
  const packages: string[] = [...extraRoots];
  const seen = new Set<string>();
  const queue = [...roots];
  while (queue.length > 0) {
    const specifier = queue.pop()!;
    if (seen.has(specifier)) continue;
    seen.add(specifier);
    const module = modules.get(specifier);
    if (module === undefined) continue;
    if (module.kind === "npm") {
      if (module.npmPackage !== undefined) packages.push(module.npmPackage);
      continue;
    }
    for (const dependency of module.dependencies ?? []) {
      const target = dependency.code?.specifier;
      if (target === undefined) continue; // type-only
      if (dependency.npmPackage !== undefined) packages.push(dependency.npmPackage);
      queue.push(resolve(target));
    }
  }
  const found = new Set<string>();
  while (packages.length > 0) {
    const key = packages.pop()!;
    if (found.has(key)) continue;
    found.add(key);
    packages.push(...(info.npmPackages?.[key]?.dependencies ?? []));
  }
  return found;
}

/** The npm packages of a lockfile's text (its `npm` section's keys). */
export function lockPackages(text: string): Set<string> {
  const lock = JSON.parse(text) as { npm?: Record<string, unknown> };
  return new Set(Object.keys(lock.npm ?? {}));
}

/**
 * The lockfile keys of the npm packages `config`'s import map names, resolved with `lock`'s
 * `specifiers` section (`npm:/@a/b@1.2.3/` → `@a/b@1.2.3`).
 */
export function mappedPackages(
  imports: Record<string, string>,
  specifiers: Record<string, string>,
): Set<string> {
  const found = new Set<string>();
  for (const target of Object.values(imports)) {
    const match = /^npm:\/?((?:@[^/@]+\/)?[^/@]+)@([^/]+)/.exec(target);
    if (match === null) continue;
    const [, name, range] = match;
    const version = specifiers[`npm:${name}@${range}`] ??
      Object.entries(specifiers).find(([key]) => key.startsWith(`npm:${name}@`))?.[1];
    if (version !== undefined) found.add(`${name}@${version}`);
  }
  return found;
}

/**
 * The npm packages of the graph of `files` resolved with `config` ({@link codeClosure} of
 * `deno info --json`). `env` is added to the environment of `deno info` (e.g. `DENO_DIR`).
 * Throws with `deno info`'s stderr when it fails (for instance when the config's frozen lockfile
 * lacks a package the graph needs).
 */
export async function graphPackages(
  files: readonly string[],
  config: string,
  options: { env?: Record<string, string>; extraRoots?: Iterable<string> } = {},
): Promise<Set<string>> {
  const dir = await Deno.makeTempDir({ prefix: "magi-tools-locks-" });
  try {
    const all = join(dir, "all.ts");
    const lines = files.map((file) => `import ${JSON.stringify(pathToFileURL(file).href)};`);
    await Deno.writeTextFile(all, `${lines.join("\n")}\n`);
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", "--config", config, all],
      cwd: ROOT,
      env: { NO_COLOR: "1", ...options.env },
      stdin: "null",
    }).output();
    if (!output.success) {
      throw new Error(
        `deno info --config ${config} failed:\n${new TextDecoder().decode(output.stderr)}`,
      );
    }
    const info = JSON.parse(new TextDecoder().decode(output.stdout)) as DenoInfo;
    // The temporary module only imports the entries: they are the roots.
    const roots = files.map((file) => pathToFileURL(file).href);
    return codeClosure(info, roots, options.extraRoots ?? []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The packages the graph of `spec` needs (resolved with the dev config and its lockfile). */
export async function specPackages(
  spec: LockSpec,
  env: Record<string, string> = {},
): Promise<Set<string>> {
  let extraRoots: Set<string> = new Set();
  if (spec.mapped) {
    const dev = JSON.parse(await Deno.readTextFile(DEV_CONFIG)) as {
      imports: Record<string, string>;
    };
    const devLock = JSON.parse(await Deno.readTextFile(join(ROOT, "dev", "deno.lock"))) as {
      specifiers?: Record<string, string>;
    };
    extraRoots = mappedPackages(dev.imports, devLock.specifiers ?? {});
  }
  return await graphPackages(entryFiles(ROOT, spec.entries, spec.core), DEV_CONFIG, {
    env,
    extraRoots,
  });
}

/** One line per package `lock` lacks (`graph` needs it) or holds needlessly; empty when equal. */
export function lockProblems(lock: ReadonlySet<string>, graph: ReadonlySet<string>): string[] {
  return [
    ...[...graph].filter((key) => !lock.has(key)).sort().map((key) => `lacks ${key}`),
    ...[...lock].filter((key) => !graph.has(key)).sort().map((key) => `holds ${key} needlessly`),
  ];
}

/** The package name of a lockfile key or specifier (`npm:@a/b@^1` → `@a/b`). */
export function packageName(key: string): string {
  const bare = key.replace(/^npm:\/?/, "");
  const at = bare.indexOf("@", 1);
  return at < 0 ? bare : bare.slice(0, at);
}

/** A version 5 lockfile, as far as {@link pruneLock} reads it. */
export interface Lockfile {
  /** Specifier → resolved version. */
  specifiers?: Record<string, string>;
  /** The npm snapshot. */
  npm?: Record<string, unknown>;
  /** The workspace's own dependencies. */
  workspace?: { dependencies?: string[]; [key: string]: unknown };
  /** Anything else, kept. */
  [key: string]: unknown;
}

/**
 * `full` cut down to the npm packages in `keep` (snapshot keys) and the specifiers resolving to
 * them, with `workspaceDependencies` as its workspace section.
 */
export function pruneLock(
  full: Lockfile,
  keep: ReadonlySet<string>,
  workspaceDependencies: readonly string[],
): Lockfile {
  return {
    version: full.version,
    specifiers: Object.fromEntries(
      Object.entries(full.specifiers ?? {})
        .filter(([key, version]) => keep.has(`${packageName(key)}@${version}`)),
    ),
    npm: Object.fromEntries(Object.entries(full.npm ?? {}).filter(([key]) => keep.has(key))),
    workspace: { dependencies: [...workspaceDependencies] },
  };
}

async function check(): Promise<number> {
  let failed = 0;
  for (const spec of LOCKS) {
    const lock = lockPackages(await Deno.readTextFile(join(ROOT, spec.path)));
    const problems = lockProblems(lock, await specPackages(spec));
    for (const problem of problems) console.error(`${spec.path}: ${problem}`);
    if (problems.length > 0) failed++;
    else console.error(`${spec.path}: current (${lock.size} npm packages)`);
  }
  return failed === 0 ? 0 : 1;
}

/**
 * The workspace section Deno expects in a lockfile used with the root config: the root import
 * map's npm targets, spelled as Deno spells them in `specifiers` (`npm:zod@^4` → `npm:zod@4`).
 */
export function workspaceDependencies(
  imports: Record<string, string>,
  specifiers: Record<string, string>,
): string[] {
  const found: string[] = [];
  for (const target of Object.values(imports)) {
    const match = /^npm:\/?((?:@[^/@]+\/)?[^/@]+)@([^/]+)/.exec(target);
    if (match === null) continue;
    const [, name, range] = match;
    const candidates = [`npm:${name}@${range}`, `npm:${name}@${range!.replace(/^\^(\d+)$/, "$1")}`];
    const key = candidates.find((candidate) => specifiers[candidate] !== undefined);
    if (key === undefined) throw new Error(`dev/deno.lock has no specifier for ${target}`);
    found.push(key);
  }
  return found.sort();
}

async function write(): Promise<void> {
  const full = JSON.parse(await Deno.readTextFile(join(ROOT, "dev", "deno.lock"))) as Lockfile;
  const root = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json"))) as {
    imports: Record<string, string>;
  };
  const workspace = workspaceDependencies(root.imports, full.specifiers ?? {});
  for (const spec of LOCKS) {
    if (spec.path === "dev/deno.lock") continue;
    const pruned = pruneLock(full, await specPackages(spec), workspace);
    await Deno.writeTextFile(join(ROOT, spec.path), `${JSON.stringify(pruned, null, 2)}\n`);
    const written = lockPackages(await Deno.readTextFile(join(ROOT, spec.path)));
    console.error(`${spec.path}: written (${written.size} npm packages)`);
  }
}

if (import.meta.main) {
  if (Deno.args[0] === "--write") await write();
  else if (Deno.args.length > 0) {
    console.error(`locks.ts: unknown argument ${Deno.args[0]} (only --write)`);
    Deno.exit(2);
  } else Deno.exit(await check());
}
