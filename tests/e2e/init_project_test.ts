/**
 * A project made by `init`, driven through its own tasks as its author would: `deno task start`
 * is the whole CLI (as in this repository), each command the docs show has a task, and the tasks
 * derive their permissions from `magi-tools.jsonc` (`tools --task-flags`), so an OpenAPI source
 * whose auth reads an environment variable works without editing deno.json.
 */
import assert from "node:assert/strict";
import { one, type Rec, REFERENCE_AGENT, ROOT, runCli } from "./_cli.ts";

const decoder = new TextDecoder();

/** A new project in a temporary directory (removed by the caller: its parent). */
async function initProject(): Promise<string> {
  const parent = await Deno.makeTempDir({ prefix: "magi-tools-init-tasks-" });
  const dir = `${parent}/project`;
  const made = await runCli(["init", dir, "--from", ROOT], { raw: true });
  assert.equal(made.code, 0, made.stderr);
  return dir;
}

/** `deno task -q NAME ARGS…` in `dir`, stdin `input` (or none), 60 s at most. */
async function task(
  dir: string,
  args: string[],
  options: { input?: string; env?: Record<string, string> } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const home = await Deno.makeTempDir({ prefix: "magi-tools-init-home-" });
  try {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["task", "-q", ...args],
      cwd: dir,
      stdin: options.input === undefined ? "null" : "piped",
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1", MC_HOME: home, MAGI_CODE_AGENT: REFERENCE_AGENT, ...options.env },
      signal: AbortSignal.timeout(60_000),
    }).spawn();
    if (options.input !== undefined) {
      const writer = child.stdin.getWriter();
      await writer.write(new TextEncoder().encode(options.input));
      await writer.close();
    }
    const output = await child.output();
    return {
      code: output.code,
      stdout: decoder.decode(output.stdout),
      stderr: decoder.decode(output.stderr),
    };
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

Deno.test("init project: `deno task start` is the CLI: --help, tools, and mcp answers initialize", async () => {
  const dir = await initProject();
  try {
    const help = await task(dir, ["start", "--help"]);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /magi-tools run \[options\] \[PROMPT\]/);

    const tools = await task(dir, ["start", "tools"]);
    assert.equal(tools.code, 0, tools.stderr);
    assert.match(tools.stdout, /^greet\tread\t/m);

    // The old `start` ran a turn with the prompt "mcp" and exited 0; now it is an MCP server.
    const initialize = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "init-test", version: "1" },
      },
    });
    const mcp = await task(dir, ["start", "mcp"], { input: initialize + "\n" });
    assert.equal(mcp.code, 0, mcp.stderr);
    const answer = JSON.parse(mcp.stdout.trim().split("\n")[0]!);
    assert.equal(answer.id, 1);
    assert.equal(answer.result.serverInfo.name, "magi-tools");

    // The per-command tasks the docs use.
    const call = await task(dir, ["call", "greet", '{"name":"Ada"}']);
    assert.equal(call.code, 0, call.stderr);
    assert.equal(call.stdout, "Hello, Ada.\n");
    const run = await task(dir, ["start", "run", 'greet {"name":"Ada"}']);
    assert.equal(run.code, 0, run.stderr);
    const records = run.stdout.trim().split("\n").map((line) => JSON.parse(line) as Rec);
    assert.equal(one(records, "tool.result").outcome, "success");

    // A usage error suggests the nearest command and names the task the user ran.
    const typo = await task(dir, ["start", "rnu", "x"]);
    assert.equal(typo.code, 2, typo.stderr);
    assert.match(typo.stderr, /did you mean 'run'\?/);
    assert.match(typo.stderr, /'deno task start --help'/);
  } finally {
    await Deno.remove(`${dir}/..`, { recursive: true });
  }
});

Deno.test("init project: batch and report tasks run a JSON Lines file and merge it", async () => {
  const dir = await initProject();
  try {
    await Deno.writeTextFile(
      `${dir}/items.jsonl`,
      '{"id":"a","prompt":"greet {\\"name\\":\\"A\\"}"}\n',
    );
    const batch = await task(dir, ["batch", "items.jsonl", "--out", "out"]);
    assert.equal(batch.code, 0, batch.stderr);
    const report = await task(dir, ["report", "out", "--markdown", "-"]);
    assert.equal(report.code, 0, report.stderr);
    assert.match(report.stdout, /\| `a` \| .* \| completed \| 1 \|/);
  } finally {
    await Deno.remove(`${dir}/..`, { recursive: true });
  }
});

const BOOKS_SPEC = {
  openapi: "3.0.3",
  info: { title: "Books", version: "1" },
  paths: {
    "/books/{id}": {
      get: {
        operationId: "getBook",
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        responses: { "200": { description: "A book" } },
      },
    },
  },
};

Deno.test("init project: an OpenAPI source whose auth reads BOOKS_KEY works with no edit of deno.json", async () => {
  const seen: (string | null)[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request) => {
    seen.push(request.headers.get("authorization"));
    return Response.json({ id: new URL(request.url).pathname.split("/").at(-1), title: "Dune" });
  });
  const dir = await initProject();
  try {
    await Deno.writeTextFile(`${dir}/books.json`, JSON.stringify(BOOKS_SPEC));
    await Deno.writeTextFile(
      `${dir}/magi-tools.jsonc`,
      JSON.stringify({
        openapi: {
          books: {
            spec: "books.json",
            baseUrl: `http://127.0.0.1:${server.addr.port}`,
            auth: { header: "Authorization", valueFromEnv: "BOOKS_KEY", prefix: "Bearer " },
          },
        },
      }),
    );
    // The config reads a variable: it is code, approved once by its author (trust store in a
    // temporary XDG_CONFIG_HOME), and the tasks' derived flags then let the host read it.
    const env = { BOOKS_KEY: "s3cret", XDG_CONFIG_HOME: `${dir}/../config` };
    const trust = await task(dir, ["start", "trust"], { env });
    assert.equal(trust.code, 0, trust.stderr);
    const flags = await task(dir, ["start", "tools", "--task-flags"], { env });
    assert.equal(flags.code, 0, flags.stderr);
    assert.match(
      flags.stdout,
      /--allow-env=MAGI_CODE_AGENT,PATH,NO_COLOR,FORCE_COLOR,HOME,XDG_CONFIG_HOME,APPDATA,MAGI_TOOLS_TRUST_CONFIG,MAGI_TOOLS_INVOCATION,BOOKS_KEY /,
    );

    const run = await task(dir, ["start", "run", 'getBook {"id":"7"}'], { env });
    assert.equal(run.code, 0, run.stderr);
    const records = run.stdout.trim().split("\n").map((line) => JSON.parse(line) as Rec);
    const result = one(records, "tool.result");
    assert.equal(result.outcome, "success", JSON.stringify(result));
    assert.deepEqual(seen, ["Bearer s3cret"]);
  } finally {
    await server.shutdown();
    await Deno.remove(`${dir}/..`, { recursive: true });
  }
});
