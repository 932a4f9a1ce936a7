/**
 * The suite runs with `deno test --parallel`: test modules run at the same time, each in its own
 * isolate of ONE process, so the process's environment and working directory are shared by all of
 * them. A test that sets `PATH`, `HOME` or a variable the code under test reads would change what
 * another module's children inherit at that moment. This check fails on any `Deno.chdir` in
 * `tests/` and on any `Deno.env.set`/`delete` of a name outside {@link OWN_NAMES}: variables no
 * other module reads. Code that reads the environment takes an `env` getter instead (for example
 * `defaultDir(env)`, `resolveAgentCommand(flag, { env })`, `selfCheckFromEnv(env)`).
 * Test fixtures (`fixtures/`) run in child processes of their own and are not checked.
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { root as ROOT } from "./_kit/mod.ts";

/** Variables a test may set: each read only by its own test module (name or constant). */
const OWN_NAMES: Readonly<Record<string, string>> = {
  PROBE_ALLOWED: "tests/sandbox/permissions_declared_test.ts: a variable only its tool reads",
  KEY_ENV: "tests/openapi/petstore_test.ts: MAGI_TEST_PETSTORE_KEY, its own API key variable",
  TOKEN_ENV: "tests/openapi/github_test.ts: MAGI_TEST_GITHUB_TOKEN, its own token variable",
  TICKETS_API_URL: "tests/tools/http_json_test.ts: the URL only the http_json example reads",
};

function testFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of Deno.readDirSync(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) {
      if (entry.name !== "fixtures") files.push(...testFiles(path));
    } else if (entry.name.endsWith(".ts")) files.push(path);
  }
  return files;
}

const MUTATION = /\bDeno\.(chdir|env\.set|env\.delete)\(\s*(["'`]?)([A-Za-z_][A-Za-z0-9_]*)\2/g;

Deno.test("tests never change the shared process's working directory or others' environment", () => {
  const offenders: string[] = [];
  const used = new Set<string>();
  const self = relative(ROOT, new URL(import.meta.url).pathname);
  for (const path of testFiles(join(ROOT, "tests"))) {
    const file = relative(ROOT, path);
    if (file === self) continue;
    const text = Deno.readTextFileSync(path);
    for (const match of text.matchAll(MUTATION)) {
      const [, call, , name] = match;
      const line = text.slice(0, match.index).split("\n").length;
      if (call === "chdir") offenders.push(`${file}:${line}: Deno.chdir`);
      else if (name !== undefined && name in OWN_NAMES) used.add(name);
      else offenders.push(`${file}:${line}: Deno.${call}(${name})`);
    }
  }
  assert.deepEqual(offenders, [], "pass an env getter or a cwd option instead");
  const stale = Object.keys(OWN_NAMES).filter((name) => !used.has(name));
  assert.deepEqual(stale, [], "OWN_NAMES entries no test sets any more: strike them");
});
