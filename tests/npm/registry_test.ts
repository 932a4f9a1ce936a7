/**
 * The npm package end to end through a real registry (issue 32 items 1 and 6): build it
 * (`npm-build.ts`), `npm publish` it to Verdaccio on loopback (`_verdaccio.ts`: a throwaway
 * config, storage and user), then, in empty temporary directories that hold no checkout:
 *
 * - Node.js: `npm install @magi/tools zod`, `npx magi-tools --version`, `init` (a Node project:
 *   `.mjs` tool, `node:test` test), `tools`, `call`, its test, and `run` against the reference
 *   backend (named with `--agent`: Node.js has no fallback);
 * - Deno: `init` from the registry (`NPM_CONFIG_REGISTRY`), a project importing
 *   `npm:@magi/tools@^VERSION` (exempt from Deno's minimum dependency age, so a release works on
 *   its release day), its `tools`, `call`, `test` and `start run` tasks, tools in their own
 *   process with the sandbox enforcing a tool's declared read scope.
 *
 * Skipped, naming the reason, when Verdaccio cannot be installed (no node/npm, no network for
 * the first install) or `MAGI_TOOLS_REGISTRY_TESTS=0`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { installRegistry, ROOT, startRegistry } from "./_verdaccio.ts";

const skip = await installRegistry();
const decoder = new TextDecoder();
const VERSION: string = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`)).version;

interface Output {
  code: number;
  stdout: string;
  stderr: string;
}

async function sh(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<Output> {
  // Run under `npx deno task test` (.ci/run), the environment holds npx's own `npm_config_*`
  // settings (its registry among them), which would outrank the test's npmrc: leave them out.
  const inherited = Object.fromEntries(
    Object.entries(Deno.env.toObject()).filter(([key]) => !/^npm_config_/i.test(key)),
  );
  const output = await new Deno.Command(command, {
    args,
    cwd,
    clearEnv: true,
    env: { ...inherited, NO_COLOR: "1", ...env },
    stdin: "null",
    signal: AbortSignal.timeout(300_000),
  }).output();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}

async function ok(command: string, args: string[], cwd: string, env: Record<string, string>) {
  const result = await sh(command, args, cwd, env);
  assert.equal(result.code, 0, `${command} ${args.join(" ")}:\n${result.stdout}\n${result.stderr}`);
  return result;
}

/** NDJSON summary records of `run`. */
function records(stdout: string): Record<string, unknown>[] {
  return stdout.trim().split("\n").map((line) => JSON.parse(line));
}

/** The packages npm installed into `dir` (its `node_modules/.package-lock.json`). */
async function installedPackages(dir: string): Promise<string[]> {
  const lock = JSON.parse(await Deno.readTextFile(join(dir, "node_modules/.package-lock.json")));
  return Object.keys(lock.packages as Record<string, unknown>)
    .filter((path) => path.startsWith("node_modules/"))
    .map((path) => path.replace(/^.*node_modules\//, ""));
}

/** A tool that reads any path it is given, but declares read access to `data/` only. */
const PEEK = `import { z } from "zod";
import { defineTool } from "@magi/tools";

export default defineTool({
  name: "peek",
  description: "Read a text file.",
  input: z.strictObject({ path: z.string() }),
  effect: "read",
  permissions: { read: ["data"] },
  run: ({ path }) => Deno.readTextFile(path),
});
`;

Deno.test({
  name: skip === null
    ? "npm package via a Verdaccio registry: Node and Deno projects from an empty directory"
    : `npm package via a Verdaccio registry (SKIPPED: ${skip})`,
  ignore: skip !== null,
  sanitizeResources: false,
  async fn(t) {
    const scratch = await Deno.makeTempDir({ prefix: "magi-tools-registry-" });
    const registry = await startRegistry();
    try {
      await ok(
        Deno.execPath(),
        [
          "run",
          "--config",
          `${ROOT}dev/deno.json`,
          "-A",
          "--no-prompt",
          `${ROOT}npm-build.ts`,
          "--out",
          join(scratch, "package"),
          "--no-smoke",
        ],
        ROOT,
        {},
      );
      const host = registry.url.replace(/^http:/, "");
      const npmrc = join(scratch, "npmrc");
      await Deno.writeTextFile(
        npmrc,
        `registry=${registry.url}\n${host}:_authToken=${registry.token}\n`,
      );
      const npmEnv = { NPM_CONFIG_USERCONFIG: npmrc, NPM_CONFIG_UPDATE_NOTIFIER: "false" };
      await ok("npm", ["publish"], join(scratch, "package"), npmEnv);
      const backend =
        `${Deno.execPath()} run -A ${ROOT}src/reference_backend/main.ts serve --stdio`;

      await t.step("Node.js: npm install, npx magi-tools init/tools/call/run", async () => {
        const dir = join(scratch, "node-app");
        await Deno.mkdir(dir);
        const env = { ...npmEnv, MC_HOME: join(scratch, "mc-node") };
        await ok("npm", ["install", "--no-audit", "--no-fund", "@magi/tools", "zod"], dir, env);
        // The MCP and OpenAPI stacks are optional peers: the install holds a handful of
        // packages, not the ~100 of the SDK and the OpenAPI parser, YAML and validator.
        const installed = await installedPackages(dir);
        assert.ok(installed.length < 10, `installed ${installed.length}: ${installed.join(", ")}`);
        assert.ok(!installed.includes("@modelcontextprotocol/sdk"), installed.join(", "));
        const version = await ok("npx", ["magi-tools", "--version"], dir, env);
        assert.equal(version.stdout, `magi-tools ${VERSION}\n`);
        const init = await ok("npx", ["magi-tools", "init"], dir, env);
        assert.match(init.stdout, /tools\/greet\.mjs/);
        await assert.rejects(Deno.stat(join(dir, "tools/greet.ts")), Deno.errors.NotFound);
        const tools = await ok("npx", ["magi-tools", "tools"], dir, env);
        assert.match(tools.stdout, /^greet\tread\t.*tools\/greet\.mjs/m);
        const call = await ok("npx", ["magi-tools", "call", "greet", '{"name":"Ada"}'], dir, env);
        assert.equal(call.stdout, "Hello, Ada.\n");
        const test = await ok("node", ["--test", "tests/"], dir, env);
        assert.match(test.stdout, /# pass 2\n# fail 0/);
        const run = await ok(
          "npx",
          ["magi-tools", "run", "--agent", backend, 'greet {"name":"Ada"}'],
          dir,
          env,
        );
        const result = records(run.stdout).find((r) => r.type === "tool.result");
        assert.equal(result?.outcome, "success", run.stdout);

        // An OpenAPI source without its packages: exit 2 with the command; after it, it works.
        await Deno.copyFile(`${ROOT}examples/openapi/tickets.yaml`, join(dir, "tickets.yaml"));
        const apiConfig = join(dir, "api.jsonc");
        await Deno.writeTextFile(
          apiConfig,
          JSON.stringify({
            openapi: { tickets: { spec: "tickets.yaml", include: ["getTicket"] } },
          }),
        );
        const listApi = ["magi-tools", "tools", "--config", apiConfig];
        const missing = await sh("npx", listApi, dir, env);
        assert.equal(missing.code, 2, missing.stderr);
        const command = /run `(npm install [^`]+)`/.exec(missing.stderr)?.[1];
        assert.ok(command !== undefined, missing.stderr);
        assert.match(command, /@apidevtools\/json-schema-ref-parser@\^16/);
        const args = command.split(" ").slice(2).map((arg) => arg.replace(/^'(.*)'$/, "$1"));
        await ok("npm", ["install", "--no-audit", "--no-fund", ...args], dir, env);
        const api = await ok("npx", listApi, dir, env);
        assert.match(api.stdout, /^getTicket\tread\t/m);
      });

      await t.step(
        "Deno: init from the registry, tasks, process isolation and sandbox",
        async () => {
          const parent = join(scratch, "deno-app");
          await Deno.mkdir(parent);
          const denoDir = join(scratch, "deno-dir");
          const env = {
            NPM_CONFIG_REGISTRY: registry.url,
            DENO_DIR: denoDir,
            MC_HOME: join(scratch, "mc-deno"),
          };
          // The version was published a moment ago: Deno's default minimum dependency age (a day)
          // refuses it unless told otherwise (docs/packages.md).
          await ok(
            Deno.execPath(),
            [
              "run",
              "-A",
              "--min-dep-age=0",
              `npm:@magi/tools@${VERSION}/cli`,
              "init",
              "p",
            ],
            parent,
            env,
          );
          const dir = join(parent, "p");
          const config = await Deno.readTextFile(join(dir, "deno.json"));
          assert.equal(JSON.parse(config).imports["@magi/tools"], `npm:@magi/tools@^${VERSION}`);
          assert.doesNotMatch(config, /file:|"\/(work|tmp|home)/);

          const tools = await ok(Deno.execPath(), ["task", "-q", "tools"], dir, env);
          assert.match(tools.stdout, /^greet\tread\t.*\tprocess; no permissions\t/m);
          const call = await ok(
            Deno.execPath(),
            ["task", "-q", "call", "greet", '{"name":"Ada"}'],
            dir,
            env,
          );
          assert.equal(call.stdout, "Hello, Ada.\n");
          const test = await ok(Deno.execPath(), ["task", "test"], dir, env);
          assert.match(test.stdout + test.stderr, /ok \| 2 passed \| 0 failed/);

          await Deno.writeTextFile(join(dir, "tools/peek.ts"), PEEK);
          await Deno.mkdir(join(dir, "data"));
          await Deno.writeTextFile(join(dir, "data/a.txt"), "inside\n");
          await Deno.writeTextFile(join(scratch, "secret.txt"), "outside\n");
          const inside = await ok(
            Deno.execPath(),
            ["task", "-q", "call", "peek", '{"path":"data/a.txt"}'],
            dir,
            env,
          );
          assert.equal(inside.stdout, "inside\n");
          const outside = await sh(
            Deno.execPath(),
            ["task", "-q", "call", "peek", JSON.stringify({ path: join(scratch, "secret.txt") })],
            dir,
            env,
          );
          assert.equal(outside.code, 1, outside.stderr);
          assert.doesNotMatch(outside.stdout, /outside/);
          assert.match(outside.stderr, /denied read access/);

          // No magi-code here: the reference backend of the installed package, named.
          const run = await ok(
            Deno.execPath(),
            ["task", "-q", "start", "run", "--agent", "reference", 'greet {"name":"Ada"}'],
            dir,
            env,
          );
          const all = records(run.stdout);
          const ready = all.find((r) => r.type === "host.ready");
          const greet = (ready?.tools as { name: string; sandbox: string }[] | undefined)
            ?.find((t) => t.name === "greet");
          // Process-isolated (its own permission-limited process), never run inline ("none").
          assert.match(String(greet?.sandbox), /^(kernel\+deno|deno)$/, run.stdout);
          assert.equal((ready?.backend as { kind?: string } | undefined)?.kind, "reference");
          assert.equal(all.find((r) => r.type === "tool.result")?.outcome, "success", run.stdout);

          // The OpenAPI packages are optional peers here too: exit 2 with the `deno add`
          // command; after it, the source's tools are listed.
          await Deno.copyFile(`${ROOT}examples/openapi/tickets.yaml`, join(dir, "tickets.yaml"));
          await Deno.writeTextFile(
            join(dir, "api.jsonc"),
            JSON.stringify({
              openapi: { tickets: { spec: "tickets.yaml", include: ["getTicket"] } },
            }),
          );
          const listApi = ["task", "-q", "tools", "--config", "api.jsonc"];
          const missing = await sh(Deno.execPath(), listApi, dir, env);
          assert.equal(missing.code, 2, missing.stderr);
          const command = /run `deno (add [^`]+)`/.exec(missing.stderr)?.[1];
          assert.ok(command !== undefined, missing.stderr);
          assert.match(command, /npm:@apidevtools\/json-schema-ref-parser@\^16/);
          const args = command.split(" ").map((arg) => arg.replace(/^'(.*)'$/, "$1"));
          await ok(Deno.execPath(), args, dir, env);
          const api = await ok(Deno.execPath(), listApi, dir, env);
          assert.match(api.stdout, /^getTicket\tread\t/m);
        },
      );
    } finally {
      await registry.stop();
      await Deno.remove(scratch, { recursive: true }).catch(() => {});
    }
  },
});
