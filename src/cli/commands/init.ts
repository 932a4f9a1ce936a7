/**
 * `init [DIR] [--from PATH]`: write a minimal, working tools project — one
 * example tool, its test (which runs the tool through `call`) and a
 * commented `magi-tools.jsonc` (`init_files.ts`).
 *
 * Run by Deno, the project is a Deno project: a `deno.json` whose `start`
 * task is the whole CLI (plus one task per command and `test`, all without
 * `-A`, their permissions derived from the config), `tools/greet.ts`. Its
 * `@magi/tools` import is a registry specifier of this version, so the
 * project works on any machine: `jsr:` when this magi-tools was loaded from
 * JSR, else `npm:` (the npm package serves Deno its Deno build, process
 * sandbox included). `--from PATH` takes a local magi-tools checkout instead,
 * written relative to the project (never an absolute path).
 *
 * Run by Node.js (`npx magi-tools init`), the project is a Node project:
 * `tools/greet.mjs` and a `node:test` test; the packages come from
 * `npm install @magi/tools zod`.
 *
 * Nothing is overwritten: when any of the files exists, nothing is written
 * and the command exits 2 naming them.
 *
 * @module
 */

import { lstat, mkdir, stat, writeFile } from "node:fs/promises";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { currentDir, runtimeName, writeStderrLine, writeStdout } from "../../runtime/mod.ts";
import type { InitArgs } from "../args/mod.ts";
import { EXIT, exitCode } from "../../run/exit_codes.ts";
import { UsageError } from "../../errors/mod.ts";
import { PACKAGE_VERSION } from "../../host/version.ts";
import {
  type LibrarySpecifiers,
  nodeProjectFiles,
  type ProjectFile,
  projectFiles,
} from "./init_files.ts";

export {
  type LibrarySpecifiers,
  nodeProjectFiles,
  projectDenoJson,
  type ProjectFile,
  projectFiles,
  projectTasks,
} from "./init_files.ts";

/**
 * The registry specifiers of this version: the JSR package when this magi-tools was loaded
 * from jsr.io, else the npm package (`npm:@magi/tools@^VERSION`, which Deno reads too).
 */
export function registryLibrary(moduleUrl: string = import.meta.url): LibrarySpecifiers {
  const registry = moduleUrl.startsWith("https://jsr.io/") ? "jsr" : "npm";
  return {
    library: `${registry}:@magi/tools@^${PACKAGE_VERSION}`,
    cli: `${registry}:@magi/tools@^${PACKAGE_VERSION}/cli`,
  };
}

/**
 * The specifiers of the magi-tools checkout at `from` for a project in `projectDir` (both
 * absolute): its `mod.ts`/`cli.ts` relative to the project (`../magi-tools/mod.ts`), so the
 * project and the checkout can move together.
 */
export function localLibrary(from: string, projectDir: string): LibrarySpecifiers {
  let path = relative(projectDir, from).split(sep).join("/");
  if (isAbsolute(path)) {
    throw new UsageError(
      `init --from ${from}: not reachable by a relative path from ${projectDir}`,
    );
  }
  if (path === "") path = ".";
  if (!path.startsWith(".")) path = `./${path}`;
  return { library: `${path}/mod.ts`, cli: `${path}/cli.ts` };
}

/** Fail with a usage error naming `--from` unless `dir` is a magi-tools checkout. */
async function checkCheckout(dir: string, given: string): Promise<void> {
  for (const file of ["mod.ts", "cli.ts", "deno.json"]) {
    try {
      if ((await stat(`${dir}/${file}`)).isFile()) continue;
    } catch (error) {
      if (!notFound(error)) throw error;
    }
    throw new UsageError(`init --from ${given}: not a magi-tools checkout (no ${file} there)`);
  }
}

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

/** The files for `args` and the "Next:" lines, by runtime and `--from`. */
async function plan(
  args: InitArgs,
  dir: string,
  runtime: string,
): Promise<{ files: ProjectFile[]; next: string[] }> {
  if (runtime !== "deno") {
    if (args.from !== undefined) {
      throw new UsageError(
        "init --from is for Deno projects; on Node.js install a local build instead: " +
          "npm install PATH/TO/magi-tools-VERSION.tgz (docs/packages.md)",
      );
    }
    return {
      files: nodeProjectFiles(),
      next: [
        `  cd ${dir}`,
        `  npm install @magi/tools zod                 # unless installed already`,
        `  npx magi-tools call greet '{"name":"Ada"}'    # call a tool without an agent`,
        `  node --test tests/                          # the example tool's tests`,
        `  npx magi-tools run --agent CMD "greet {\\"name\\":\\"Ada\\"}"  # one agent turn`,
        `  npx magi-tools --help                       # every command: run, mcp, batch, report, …`,
      ],
    };
  }
  let lib = registryLibrary();
  if (args.from !== undefined) {
    const from = resolve(currentDir(), args.from);
    await checkCheckout(from, args.from);
    lib = localLibrary(from, resolve(currentDir(), dir));
  }
  return {
    files: projectFiles(lib),
    next: [
      `  cd ${dir}`,
      `  deno task test                          # the example tool's tests`,
      `  deno task call greet '{"name":"Ada"}'   # call a tool without an agent`,
      `  deno task inspect                       # try tools and turns in the browser`,
      `  deno task start run "greet {\\"name\\":\\"Ada\\"}"  # one agent turn (magi-code on PATH, or add --agent reference)`,
      `  deno task start --help                  # every command: run, mcp, batch, report, …`,
    ],
  };
}

/** Run `init`; resolves with the exit code (2 when a file exists: nothing is written). */
export async function initCommand(
  args: InitArgs,
  runtime: string = runtimeName(),
): Promise<number> {
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
  const { files, next } = await plan(args, dir, runtime);
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
    ...next,
  ];
  await writeStdout(new TextEncoder().encode(lines.join("\n") + "\n"));
  return EXIT.ok;
}
