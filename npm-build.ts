/**
 * Build the npm package into `npm/` and prove it works under Node.js.
 *
 * `deno task build:npm` (= `deno run -A npm-build.ts`). Steps:
 *
 * 1. Bundle every `deno.json` export with esbuild (ESM, Node 20, code
 *    splitting) into `npm/esm/`. `src/runtime/deno/mod.ts` (the Deno runtime's
 *    primitives) is swapped for `src/runtime/node/mod.ts`, and `src/sources/_feature_import.ts`
 *    (the non-literal dynamic import of MCP and OpenAPI) for
 *    `src/sources/_feature_import_npm.ts` (literal imports: each feature is a
 *    chunk); `npm:` specifiers and import-map names become bare npm names and
 *    stay external (dependencies).
 * 2. Write `.d.ts` files for every bundled source module into `npm/types/`
 *    (TypeScript's isolated-declaration transpiler, the same per-file
 *    declarations JSR generates; with the same adapter swap).
 * 3. Write `package.json` (name, version, license from `deno.json`; exports
 *    mirroring `deno.json`'s, checked: a mismatch fails the build), the
 *    `magi-tools` bin, README and LICENSE.
 * 4. Unless `--no-smoke`: `npm pack`, install the tarball into a scratch
 *    folder, and under Node.js run one turn of a `.mjs` tool against the
 *    reference backend (started with Deno) through the package's bin; check
 *    the NDJSON summaries and the exit code.
 *
 * Exit 0 on success; on any failure, 1 with the reason on stderr.
 *
 * @module
 */

import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type * as esbuild from "npm:esbuild@^0.25";

const ROOT = dirname(fileURLToPath(import.meta.url));
const DENO_ADAPTER = join(ROOT, "src/runtime/deno/mod.ts");
const NODE_ADAPTER = join(ROOT, "src/runtime/node/mod.ts");
const FEATURE_IMPORT = join(ROOT, "src/sources/_feature_import.ts");
const FEATURE_IMPORT_NPM = join(ROOT, "src/sources/_feature_import_npm.ts");
const BIN_NAME = "magi-tools";

/** The `deno.json` fields the build uses. */
interface DenoConfig {
  name: string;
  version: string;
  license: string;
  exports: Record<string, string>;
  imports: Record<string, string>;
}

/** The build failed: `message` says why. */
class BuildError extends Error {
  override name = "BuildError";
}

async function readConfig(): Promise<DenoConfig> {
  const config = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json")));
  for (const field of ["name", "version", "license"] as const) {
    if (typeof config[field] !== "string" || config[field] === "") {
      throw new BuildError(`deno.json has no ${field}`);
    }
  }
  if (typeof config.exports !== "object" || config.exports === null) {
    throw new BuildError("deno.json has no exports map");
  }
  return config as DenoConfig;
}

/** `npm:zod@^4` → `{ name: "zod", range: "^4", subpath: "" }` (`subpath`: `/types.js` or empty). */
function parseNpmSpecifier(
  specifier: string,
): { name: string; range: string; subpath: string } | null {
  const match = /^npm:\/?((?:@[^/@]+\/)?[^/@]+)(?:@([^/]+))?(\/.*)?$/.exec(specifier);
  if (match === null) return null;
  return { name: match[1]!, range: match[2] ?? "*", subpath: match[3] ?? "" };
}

/** Output module name of an export target: `./mod.ts` → `mod`, `./src/x/cli.ts` → `src/x/cli`. */
function outName(target: string): string {
  return target.replace(/^\.\//, "").replace(/\.ts$/, "");
}

/**
 * A subpath of a mapped npm package (`@modelcontextprotocol/sdk/client/index.js` with
 * `"@modelcontextprotocol/sdk": "npm:@modelcontextprotocol/sdk@1.32.2"` mapped), as Deno resolves
 * it: the mapped specifier plus the subpath; undefined when no npm key is a prefix.
 */
function npmSubpath(mapped: ReadonlyMap<string, string>, path: string): string | undefined {
  let best: string | undefined;
  for (const key of mapped.keys()) {
    if (path.startsWith(`${key}/`) && mapped.get(key)!.startsWith("npm:")) {
      if (best === undefined || key.length > best.length) best = key;
    }
  }
  return best === undefined ? undefined : mapped.get(best)! + path.slice(best.length);
}

/** The folders of the optional features (src/sources/features.ts): their npm packages are optional. */
const FEATURE_DIRS = [join(ROOT, "src/mcp/"), join(ROOT, "src/openapi/")];

/** npm packages the bundle imports: name → range, and the names imported outside the features. */
interface UsedPackages {
  readonly ranges: Map<string, string>;
  readonly core: Set<string>;
}

function packagePlugin(config: DenoConfig, used: UsedPackages): esbuild.Plugin {
  const mapped = new Map<string, string>();
  for (const [key, value] of Object.entries(config.imports)) mapped.set(key, value);
  const external = (specifier: string, importer: string) => {
    const npm = parseNpmSpecifier(specifier);
    if (npm === null) throw new BuildError(`Unsupported import in the npm build: ${specifier}`);
    used.ranges.set(npm.name, npm.range);
    if (!FEATURE_DIRS.some((dir) => importer.startsWith(dir))) used.core.add(npm.name);
    return { path: npm.name + npm.subpath, external: true };
  };
  return {
    name: "magi-tools-npm",
    setup(build) {
      build.onResolve({ filter: /^npm:/ }, (args) => external(args.path, args.importer));
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith("node:")) return { path: args.path, external: true };
        const target = mapped.get(args.path) ?? npmSubpath(mapped, args.path);
        if (target === undefined) {
          throw new BuildError(`Import not in the deno.json import map: ${args.path}`);
        }
        return external(target, args.importer);
      });
      build.onResolve({ filter: /deno\/mod\.ts$/ }, (args) => {
        const path = resolve(args.resolveDir, args.path);
        return path === DENO_ADAPTER ? { path: NODE_ADAPTER } : undefined;
      });
      build.onResolve({ filter: /_feature_import\.ts$/ }, (args) => {
        const path = resolve(args.resolveDir, args.path);
        return path === FEATURE_IMPORT ? { path: FEATURE_IMPORT_NPM } : undefined;
      });
    },
  };
}

/** Bundle the exports; returns the source files bundled and the npm packages used. */
async function bundle(config: DenoConfig, out: string): Promise<{
  inputs: string[];
  dependencies: UsedPackages;
}> {
  const esbuild = await import("npm:esbuild@^0.25");
  const used: UsedPackages = { ranges: new Map(), core: new Set() };
  const entryPoints = Object.values(config.exports).map((target) => ({
    in: join(ROOT, target),
    out: outName(target),
  }));
  const result = await esbuild.build({
    entryPoints,
    outdir: join(out, "esm"),
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    metafile: true,
    logLevel: "silent",
    chunkNames: "_chunks/[name]-[hash]",
    plugins: [packagePlugin(config, used)],
  });
  const inputs = Object.keys(result.metafile.inputs).map((path) => resolve(ROOT, path));
  if (inputs.some((path) => path.startsWith(dirname(DENO_ADAPTER) + "/"))) {
    throw new BuildError("The Deno runtime adapter leaked into the npm bundle");
  }
  return { inputs, dependencies: used };
}

/** Rewrite `.ts` module specifiers to `.js` and npm specifiers to bare names. */
function rewriteSpecifiers(text: string, imports: Record<string, string>): string {
  return text.replace(/(from\s+|import\s*\(\s*)(["'])([^"']+)\2/g, (_all, head, quote, spec) => {
    let next: string = spec;
    const target = imports[spec];
    const npm = parseNpmSpecifier(target ?? spec);
    if (npm !== null) next = npm.name + npm.subpath;
    else if (/^\.\.?\//.test(spec)) next = spec.replace(/\.ts$/, ".js");
    return `${head}${quote}${next}${quote}`;
  });
}

/** Write a `.d.ts` for every bundled `.ts` source; returns how many declarations lost types. */
async function declarations(config: DenoConfig, inputs: string[], out: string): Promise<string[]> {
  const { default: ts } = await import("npm:typescript@^5.9");
  const problems: string[] = [];
  const write = async (path: string, text: string) => {
    await Deno.mkdir(dirname(path), { recursive: true });
    await Deno.writeTextFile(path, text);
  };
  for (const file of inputs) {
    if (!file.endsWith(".ts") || !file.startsWith(ROOT + "/")) continue;
    const source = await Deno.readTextFile(file);
    const result = ts.transpileDeclaration(source, {
      fileName: file,
      reportDiagnostics: true,
      compilerOptions: {
        declaration: true,
        emitDeclarationOnly: true,
        isolatedDeclarations: true,
        allowImportingTsExtensions: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
      },
    });
    for (const diagnostic of result.diagnostics ?? []) {
      const where = diagnostic.start === undefined
        ? ""
        : `:${ts.getLineAndCharacterOfPosition(diagnostic.file!, diagnostic.start).line + 1}`;
      problems.push(`${relative(ROOT, file)}${where}`);
    }
    const rel = relative(ROOT, file).replace(/\.ts$/, ".d.ts");
    await write(join(out, "types", rel), rewriteSpecifiers(result.outputText, config.imports));
  }
  // Importers name the Deno adapter; in the package it is the Node one (same exports).
  await write(
    join(out, "types", relative(ROOT, DENO_ADAPTER).replace(/\.ts$/, ".d.ts")),
    'export * from "../node/mod.js";\n',
  );
  return problems;
}

/** `npm:` specifiers in `text` as the bare names npm installed (`npm:zod@^4` → `zod`). */
function bareNpmSpecifiers(text: string): string {
  return text.replace(
    /(from\s+|import\s*\(\s*)(["'])(npm:[^"']+)\2/g,
    (_all, head, quote, spec) => {
      const npm = parseNpmSpecifier(spec)!;
      return `${head}${quote}${npm.name}${npm.subpath}${quote}`;
    },
  );
}

/**
 * Write the Deno build into `deno/`: every export's module and all of `src/`, each file
 * transpiled to JavaScript on its own (Deno strips no types under node_modules), the module
 * layout kept, so the Deno runtime adapter and the sandbox's own entry modules (`runner`,
 * `describe`, `launcher`, found with `new URL("./….ts", import.meta.url)`) work as in a
 * checkout. The package's `deno` export condition serves it: a Deno project that takes
 * `npm:@magi/tools` runs tools in their own sandboxed processes, not inline as on Node.js.
 * `npm:` specifiers become the bare names of the package's dependencies.
 */
async function denoSources(config: DenoConfig, out: string): Promise<void> {
  const esbuild = await import("npm:esbuild@^0.25");
  const copy = async (from: string) => {
    const rel = relative(ROOT, from);
    let text = await Deno.readTextFile(from);
    if (from.endsWith(".ts")) {
      text = (await esbuild.transform(text, {
        loader: "ts",
        format: "esm",
        target: "esnext", // keeps `with { type: "json" }`
        sourcefile: rel,
      })).code;
      // Relative module names (imports, `new URL("./x.ts", import.meta.url)`) → `.js`.
      text = bareNpmSpecifiers(text).replace(
        /(["'])(\.\.?\/[^"'\n]*?)\.ts\1/g,
        (_all, quote, path) => `${quote}${path}.js${quote}`,
      );
    }
    // No deno.json in the package (Deno would take it for the config of the tool processes,
    // whose entry module is the runner here): the version comes from package.json.
    if (rel === "src/host/version.ts") {
      text = text.replace('"../../deno.json"', '"../../../package.json"');
    }
    const to = join(out, "deno", rel.replace(/\.ts$/, ".js"));
    await Deno.mkdir(dirname(to), { recursive: true });
    await Deno.writeTextFile(to, text);
  };
  for (const target of Object.values(config.exports)) await copy(join(ROOT, target));
  const walk = async (dir: string): Promise<void> => {
    for await (const entry of Deno.readDir(dir)) {
      const path = join(dir, entry.name);
      if (entry.isDirectory) await walk(path);
      else if (entry.isFile && /\.(ts|json)$/.test(entry.name)) await copy(path);
    }
  };
  await walk(join(ROOT, "src"));
}

/**
 * `package.json` for `npm/`, exports mirroring `deno.json`'s. The packages only the optional
 * features import (the MCP SDK; the OpenAPI parser, YAML and validator) are optional peer
 * dependencies: neither npm nor Deno installs them with the package, and a project that uses an
 * MCP or OpenAPI source adds them (src/sources/features.ts names them and the command).
 */
function packageJson(config: DenoConfig, used: UsedPackages) {
  const sorted = [...used.ranges].sort(([a], [b]) => a < b ? -1 : 1);
  const optional = sorted.filter(([name]) => !used.core.has(name));
  const exports: Record<string, { types: string; deno: string; import: string }> = {};
  for (const [key, target] of Object.entries(config.exports)) {
    // Deno matches `deno` before `import` (Node.js never matches `deno`).
    exports[key] = {
      types: `./types/${outName(target)}.d.ts`,
      deno: `./deno/${outName(target)}.js`,
      import: `./esm/${outName(target)}.js`,
    };
  }
  return {
    name: config.name,
    version: config.version,
    description: "Give a coding agent your own tools over the magi-code.local-agent protocol",
    license: config.license,
    type: "module",
    exports,
    bin: { [BIN_NAME]: `./bin/${BIN_NAME}.js` },
    files: ["esm", "deno", "types", "bin", "README.md", "LICENSE"],
    engines: { node: ">=20" },
    dependencies: Object.fromEntries(sorted.filter(([name]) => used.core.has(name))),
    peerDependencies: Object.fromEntries(optional),
    peerDependenciesMeta: Object.fromEntries(optional.map(([name]) => [name, { optional: true }])),
  };
}

/** A `package.json` as far as the exports check reads it. */
export interface PackageExports {
  /** Package version. */
  version?: unknown;
  /** Subpath → conditions. */
  exports?: Record<string, { types?: unknown; deno?: unknown; import?: unknown }>;
}

/**
 * Why `pkg`'s exports do not mirror `denoExports` (same subpaths, each at the
 * built file of the same module), or null when they do.
 */
export function exportsMismatch(
  denoExports: Record<string, string>,
  pkg: PackageExports,
): string | null {
  const denoKeys = Object.keys(denoExports).sort();
  const npmKeys = Object.keys(pkg.exports ?? {}).sort();
  if (JSON.stringify(denoKeys) !== JSON.stringify(npmKeys)) {
    return `package.json exports ${JSON.stringify(npmKeys)} do not match deno.json exports ${
      JSON.stringify(denoKeys)
    }`;
  }
  for (const key of denoKeys) {
    const name = outName(denoExports[key]!);
    const entry = pkg.exports?.[key];
    if (entry?.import !== `./esm/${name}.js` || entry?.types !== `./types/${name}.d.ts`) {
      return `package.json export ${key} does not point at the build of ${denoExports[key]}: ${
        JSON.stringify(entry)
      }`;
    }
  }
  return null;
}

/** Fail unless the written `package.json` mirrors `deno.json` and names existing files. */
async function checkPackage(config: DenoConfig, out: string): Promise<void> {
  const pkg = JSON.parse(await Deno.readTextFile(join(out, "package.json"))) as PackageExports;
  const mismatch = exportsMismatch(config.exports, pkg);
  if (mismatch !== null) throw new BuildError(mismatch);
  for (const [key, entry] of Object.entries(pkg.exports ?? {})) {
    for (const file of [entry.import, entry.types, entry.deno]) {
      try {
        await Deno.stat(join(out, String(file)));
      } catch {
        throw new BuildError(`package.json export ${key} names a missing file: ${file}`);
      }
    }
  }
  if (pkg.version !== config.version) {
    throw new BuildError(`package.json version ${pkg.version} is not ${config.version}`);
  }
}

const BIN = `#!/usr/bin/env node
import { main } from "../esm/cli.js";

process.exit(await main(process.argv.slice(2)));
`;

/** Build `npm/`. */
export async function buildPackage(out: string): Promise<{ problems: string[] }> {
  const config = await readConfig();
  if (config.exports["./cli"] === undefined) throw new BuildError("deno.json has no ./cli export");
  await Deno.remove(out, { recursive: true }).catch(() => {});
  await Deno.mkdir(join(out, "bin"), { recursive: true });
  const { inputs, dependencies } = await bundle(config, out);
  const problems = await declarations(config, inputs, out);
  await denoSources(config, out);
  await Deno.writeTextFile(
    join(out, "package.json"),
    JSON.stringify(packageJson(config, dependencies), null, 2) + "\n",
  );
  await Deno.writeTextFile(join(out, "bin", `${BIN_NAME}.js`), BIN);
  await Deno.chmod(join(out, "bin", `${BIN_NAME}.js`), 0o755);
  await Deno.copyFile(join(ROOT, "npm-README.md"), join(out, "README.md"));
  await Deno.copyFile(join(ROOT, "LICENSE"), join(out, "LICENSE"));
  await checkPackage(config, out);
  return { problems };
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: { out: { type: "string", default: "npm" }, "no-smoke": { type: "boolean" } },
  });
  const out = resolve(ROOT, values.out);
  try {
    const { problems } = await buildPackage(out);
    console.error(`npm-build: wrote ${relative(Deno.cwd(), out) || "."}`);
    if (problems.length > 0) {
      console.error(
        `npm-build: ${problems.length} isolated-declaration notes (check the .d.ts): ${
          problems.join(", ")
        }`,
      );
    }
    if (!values["no-smoke"]) {
      const { smokeTest } = await import("./tests/npm/smoke.ts");
      await smokeTest({ packageDir: out, root: ROOT });
      console.error("npm-build: smoke test passed under Node.js");
    }
  } catch (error) {
    console.error(`npm-build: ${error instanceof Error ? error.message : String(error)}`);
    Deno.exitCode = 1;
  } finally {
    const esbuild = await import("npm:esbuild@^0.25");
    await esbuild.stop();
  }
}
