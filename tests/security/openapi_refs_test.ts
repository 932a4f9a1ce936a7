/**
 * Attack family: an OpenAPI document's `$ref`s pick which of the user's files
 * are read (issue 31 item 1). A project `magi-tools.jsonc` with only `spec`
 * and `baseUrl` needs no approval; whatever a `$ref` reaches is inlined into a
 * tool's input schema, which `tools --json` prints and the `initialize` frame
 * hands the backend. Through the CLI: a `$ref` out of the document's
 * directory (`../`, an absolute path, `file://`, a symlink inside pointing
 * out), a remote document's `file:` `$ref` and its `$ref` to another origin
 * are refused (exit 2, naming the document, the `$ref` and why) and nothing of
 * the secret reaches any output or the backend; a document split over files
 * in its own directory (a subfolder, and back up to the document's folder),
 * and a remote document split over its own origin, still load.
 *
 * Every CLI here runs in the "cloned repository" with its own
 * `XDG_CONFIG_HOME` and without `MAGI_TOOLS_TRUST_CONFIG`: no approval is involved.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { FULL_CLI, ROOT } from "../e2e/_cli.ts";
import { serve } from "../openapi/_fixtures.ts";

const SECRET = "SECRET-f9c2e1-do-not-leak";

interface Output {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

interface Repo {
  /** The temporary root: `repo/` (the project), `secret/` (outside it). */
  readonly root: string;
  /** The project (the CLI's working directory). */
  readonly dir: string;
  /** `secret/key.yaml`: a YAML object holding {@link SECRET}. */
  readonly secretFile: string;
  cli(args: string[]): Promise<Output>;
}

/** A project with `config` as magi-tools.jsonc and a secret next to it; removed afterwards. */
async function project(config: unknown, fn: (repo: Repo) => Promise<void>): Promise<void> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "magi-tools-refs-" }));
  const dir = join(root, "repo");
  await Deno.mkdir(join(dir, "specs", "sub"), { recursive: true });
  await Deno.mkdir(join(root, "secret"));
  const secretFile = join(root, "secret", "key.yaml");
  await Deno.writeTextFile(secretFile, `Key:\n  type: string\n  description: "${SECRET}"\n`);
  await Deno.writeTextFile(join(dir, "magi-tools.jsonc"), JSON.stringify(config, null, 2));
  const base = Deno.env.toObject();
  delete base["MAGI_TOOLS_TRUST_CONFIG"];
  const cli = async (args: string[]): Promise<Output> => {
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", ...FULL_CLI, "-A", `${ROOT}cli.ts`, ...args],
      cwd: dir,
      clearEnv: true,
      env: { ...base, NO_COLOR: "1", XDG_CONFIG_HOME: join(root, "xdg") },
      stdin: "null",
      signal: AbortSignal.timeout(120_000),
    }).output();
    const decoder = new TextDecoder();
    return {
      code: output.code,
      stdout: decoder.decode(output.stdout),
      stderr: decoder.decode(output.stderr),
    };
  };
  try {
    await fn({ root, dir, secretFile, cli });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

/** A document with one operation whose request body's schema is `$ref: ref`. */
function spec(ref: string, servers = true): string {
  return `openapi: 3.0.3
info: { title: Refs, version: "1" }
${servers ? 'servers: [{ url: "http://127.0.0.1:9/" }]\n' : ""}paths:
  /things:
    post:
      operationId: addThing
      requestBody:
        content:
          application/json:
            schema: { $ref: ${JSON.stringify(ref)} }
      responses: { "200": { description: ok } }
`;
}

const LOCAL = { openapi: { api: { spec: "specs/api.yaml", baseUrl: "http://127.0.0.1:9/" } } };
const POINTER = "#/paths/~1things/post/requestBody/content/application~1json/schema/\\$ref";

function assertRefused(result: Output, document: RegExp, ref: string, why: RegExp): void {
  const what = `${ref}: exit ${result.code}, stdout ${result.stdout}, stderr ${result.stderr}`;
  assert.equal(result.code, 2, what);
  assert.equal(result.stdout, "", what);
  assert.ok(!result.stderr.includes(SECRET), what);
  const line = result.stderr.split("\n").find((l) => l.includes("refused")) ?? "";
  assert.match(line, document, what);
  assert.match(line, new RegExp(`: ${POINTER}: `), what);
  assert.ok(line.includes(`$ref ${JSON.stringify(ref)} refused: `), what);
  assert.match(line, why, what);
}

Deno.test("a local document's $ref out of its directory is refused: ../, absolute, file://, symlink", async () => {
  await project(LOCAL, async (repo) => {
    const api = join(repo.dir, "specs", "api.yaml");
    await Deno.symlink(repo.secretFile, join(repo.dir, "specs", "link.yaml"));
    const cases: [string, RegExp][] = [
      [
        "../../secret/key.yaml#/Key",
        /resolves to \S+\/secret\/key\.yaml, outside the document's directory \S+\/repo\/specs$/,
      ],
      [`${repo.secretFile}#/Key`, /outside the document's directory \S+\/repo\/specs$/],
      [`file://${repo.secretFile}#/Key`, /outside the document's directory \S+\/repo\/specs$/],
      [
        "link.yaml#/Key",
        /link\.yaml is a symlink to \S+\/secret\/key\.yaml, outside the document's directory/,
      ],
      ["sub/../../../secret/key.yaml#/Key", /outside the document's directory/],
    ];
    for (const [ref, why] of cases) {
      await Deno.writeTextFile(api, spec(ref));
      assertRefused(await repo.cli(["tools", "--json"]), /specs\/api\.yaml: /, ref, why);
    }
    // A file inside that refers out is refused at its own $ref, named with the file.
    await Deno.writeTextFile(
      join(repo.dir, "specs", "sub", "inner.yaml"),
      'X: { $ref: "../../../secret/key.yaml#/Key" }\n',
    );
    await Deno.writeTextFile(api, spec("sub/inner.yaml#/X"));
    const nested = await repo.cli(["tools", "--json"]);
    assert.equal(nested.code, 2, nested.stderr);
    assert.ok(!(nested.stdout + nested.stderr).includes(SECRET), nested.stderr);
    assert.match(
      nested.stderr,
      /specs\/api\.yaml: #\/X\/\$ref: \$ref "\.\.\/\.\.\/\.\.\/secret\/key\.yaml#\/Key" refused: .*outside the document's directory \S+ \(in \S+\/specs\/sub\/inner\.yaml\)/,
    );
    // `run`: refused before the backend starts; its `initialize` frame never carries the secret.
    await Deno.writeTextFile(api, spec("../../secret/key.yaml#/Key"));
    const frames = join(repo.root, "frames.jsonl");
    const run = await repo.cli([
      "run",
      "--agent",
      `sh -c 'head -n 1 > "$0"' ${frames}`,
      "hello",
    ]);
    assertRefused(run, /specs\/api\.yaml: /, "../../secret/key.yaml#/Key", /outside/);
    const sent = await Deno.readTextFile(frames).catch(() => "");
    assert.ok(!sent.includes(SECRET), `the backend was sent the secret: ${sent.slice(0, 200)}`);
  });
});

Deno.test("a document split over $refs inside its own directory still loads", async () => {
  await project(LOCAL, async (repo) => {
    const specs = join(repo.dir, "specs");
    // api.yaml → sub/thing.yaml → ../common.yaml (back in the document's folder).
    await Deno.writeTextFile(
      join(specs, "sub", "thing.yaml"),
      'Thing:\n  type: object\n  properties:\n    name: { $ref: "../common.yaml#/Name" }\n',
    );
    await Deno.writeTextFile(
      join(specs, "common.yaml"),
      "Name: { type: string, description: the thing's name }\n",
    );
    // A symlink that stays inside is inside.
    await Deno.symlink(join(specs, "sub"), join(specs, "alias"));
    for (const ref of ["sub/thing.yaml#/Thing", "./alias/thing.yaml#/Thing"]) {
      await Deno.writeTextFile(join(specs, "api.yaml"), spec(ref));
      const result = await repo.cli(["tools", "--json"]);
      assert.equal(result.code, 0, `${ref}: ${result.stderr}`);
      const tools = JSON.parse(result.stdout) as { name: string; input_schema: unknown }[];
      const tool = tools.find((t) => t.name === "addThing");
      assert.ok(tool !== undefined, result.stdout);
      assert.match(JSON.stringify(tool.input_schema), /"description":"the thing's name"/);
    }
  });
});

Deno.test("a remote document reaches no local file and no other origin; its own origin works", async () => {
  const other = serve(() => new Response(`Key: { type: string, description: "${SECRET}" }\n`));
  let documents: Record<string, string> = {};
  const server = serve((request) => {
    const body = documents[request.url.pathname];
    if (body === "302") {
      return new Response(null, { status: 302, headers: { location: `${other.url.href}k.yaml` } });
    }
    return body === undefined ? new Response("none", { status: 404 }) : new Response(body);
  });
  try {
    const remote = { openapi: { api: { spec: new URL("/specs/api.yaml", server.url).href } } };
    await project(remote, async (repo) => {
      const cases: [string, RegExp][] = [
        [
          `file://${repo.secretFile}#/Key`,
          /a remote document's \$refs reach only its own origin http:\/\/127\.0\.0\.1:\d+, not local files/,
        ],
        [
          `${other.url.href}key.yaml#/Key`,
          new RegExp(`reach only its own origin ${server.url.origin}, not ${other.url.origin}$`),
        ],
      ];
      for (const [ref, why] of cases) {
        documents = { "/specs/api.yaml": spec(ref) };
        const result = await repo.cli(["tools", "--json"]);
        assertRefused(result, /http:\/\/127\.0\.0\.1:\d+\/specs\/api\.yaml: /, ref, why);
      }
      assert.equal(other.seen.length, 0, "the other origin was never asked");
      // A redirect of its own origin to another one is refused before it is followed.
      documents = {
        "/specs/api.yaml": spec("moved.yaml#/Key"),
        "/specs/moved.yaml": "302",
      };
      const moved = await repo.cli(["tools", "--json"]);
      assertRefused(moved, /api\.yaml: /, "moved.yaml#/Key", /redirects to http:\/\/127/);
      assert.equal(other.seen.length, 0, "the redirect target was never asked");
      // The legitimate use: a remote document split over its own origin.
      documents = {
        "/specs/api.yaml": spec("parts/thing.yaml#/Thing"),
        "/specs/parts/thing.yaml":
          'Thing:\n  type: object\n  properties:\n    name: { $ref: "../common.yaml#/Name" }\n',
        "/specs/common.yaml": "Name: { type: string, description: the thing's name }\n",
      };
      const ok = await repo.cli(["tools", "--json"]);
      assert.equal(ok.code, 0, ok.stderr);
      assert.match(ok.stdout, /"description":"the thing's name"/);
    });
  } finally {
    await server.close();
    await other.close();
  }
});
