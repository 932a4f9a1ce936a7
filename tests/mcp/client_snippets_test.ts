/**
 * docs/mcp.md's MCP client snippets (issue 32, item 4): the Claude Code entry, as written, for an
 * `init` project with an OpenAPI source whose token comes from the environment, started from
 * another working directory (as MCP clients do): its OpenAPI tool is listed, and a call gets as
 * far as the network (the project's task flags allow the token variable) instead of "the tool
 * host may not read environment variable …". And `--tools` of a project without `--config`,
 * started elsewhere, says on stderr that the project's config was not read.
 */
import assert from "node:assert/strict";
import { FULL_CLI, ROOT } from "../e2e/_cli.ts";

const TOKEN_VAR = "TICKETS_TOKEN";

/** The JSON block after `heading` in docs/mcp.md. */
async function snippet(
  heading: string,
): Promise<{ command: string; args: string[]; env: Record<string, string> }> {
  const doc = await Deno.readTextFile(`${ROOT}docs/mcp.md`);
  const after = doc.slice(doc.indexOf(heading));
  const start = after.indexOf("```json\n") + "```json\n".length;
  const block = after.slice(start, after.indexOf("\n```", start));
  const entry = JSON.parse(block).mcpServers["magi-tools"];
  return { command: entry.command, args: entry.args, env: entry.env ?? {} };
}

function closedPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** An init project with an OpenAPI source (token from TICKETS_TOKEN, API on a closed port). */
async function initProject(root: string, port: number): Promise<string> {
  const project = `${root}/my project`;
  const init = await new Deno.Command(Deno.execPath(), {
    args: ["run", ...FULL_CLI, "-A", `${ROOT}cli.ts`, "init", project, "--from", ROOT],
    cwd: root,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(init.code, 0, new TextDecoder().decode(init.stderr));
  await Deno.copyFile(`${ROOT}examples/openapi/tickets.yaml`, `${project}/tickets.yaml`);
  await Deno.writeTextFile(
    `${project}/magi-tools.jsonc`,
    JSON.stringify({
      openapi: {
        tickets: {
          spec: "tickets.yaml",
          baseUrl: `http://127.0.0.1:${port}/api`,
          auth: { header: "Authorization", valueFromEnv: TOKEN_VAR, prefix: "Bearer " },
          include: ["getTicket"],
        },
      },
    }),
  );
  return project;
}

/** Speak MCP over the child's stdio: the answers to `requests`, by id. */
async function mcpSession(
  child: Deno.ChildProcess,
  requests: readonly Record<string, unknown>[],
): Promise<Map<number, Record<string, unknown>>> {
  const writer = child.stdin.getWriter();
  const encoder = new TextEncoder();
  const answers = new Map<number, Record<string, unknown>>();
  const wanted = requests.filter((r) => r.id !== undefined).length;
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  // One request at a time, each after the answer to the one before (initialized: at once).
  for (const request of requests) {
    await writer.write(encoder.encode(JSON.stringify({ jsonrpc: "2.0", ...request }) + "\n"));
    if (request.id === undefined) continue;
    while (!answers.has(request.id as number)) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let lf: number;
      while ((lf = buffer.indexOf("\n")) >= 0) {
        const message = JSON.parse(buffer.slice(0, lf));
        buffer = buffer.slice(lf + 1);
        if (typeof message.id === "number") answers.set(message.id, message);
      }
    }
    if (!answers.has(request.id as number)) break;
  }
  await writer.close();
  reader.releaseLock();
  assert.equal(answers.size, wanted, "every request was answered");
  return answers;
}

const REQUESTS = (name: string) => [
  {
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "snippet-test", version: "1" },
    },
  },
  { method: "notifications/initialized" },
  { id: 2, method: "tools/list" },
  { id: 3, method: "tools/call", params: { name, arguments: { id: "T-1" } } },
];

Deno.test("docs/mcp.md's Claude Code snippet, started from another directory, lists and calls a project's OpenAPI tool", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "magi-snippet-" }));
  try {
    const port = closedPort();
    const project = await initProject(root, port);
    const entry = await snippet("Claude Code (`.mcp.json`");
    const args = entry.args.map((arg) => arg.replaceAll("/path/to/project", project));
    assert.ok(args.includes("--config"), "the snippet names the project's config");
    const elsewhere = `${root}/elsewhere`;
    await Deno.mkdir(elsewhere);
    const child = new Deno.Command(entry.command === "deno" ? Deno.execPath() : entry.command, {
      args,
      cwd: elsewhere,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      env: {
        ...entry.env,
        NO_COLOR: "1",
        [TOKEN_VAR]: "snippet-secret-token",
        // The config reads a variable: approved for this test (a person runs `trust` once).
        MAGI_TOOLS_TRUST_CONFIG: "1",
        XDG_CONFIG_HOME: `${root}/config`,
      },
    }).spawn();
    const stderr = new Response(child.stderr).text();
    const answers = await mcpSession(child, REQUESTS("getTicket"));
    const status = await child.status;
    const errors = await stderr;
    const tools = (answers.get(2)!.result as { tools: { name: string }[] }).tools;
    assert.deepEqual(tools.map((t) => t.name).sort(), ["getTicket", "greet"], errors);
    const call = answers.get(3)!.result as { content: { text: string }[]; isError: boolean };
    assert.equal(call.isError, true);
    assert.match(call.content[0]!.text, new RegExp(`127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\)`));
    assert.doesNotMatch(call.content[0]!.text, /may not read environment variable/);
    assert.equal(status.code, 0, errors);
  } finally {
    await Deno.remove(root, { recursive: true }).catch(() => {});
  }
});

Deno.test("mcp --tools of a project started elsewhere without --config says its config is not read", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "magi-snippet-" }));
  try {
    const project = await initProject(root, closedPort());
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", ...FULL_CLI, "-A", `${ROOT}cli.ts`, "mcp", "--tools", `${project}/tools`],
      cwd: root,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" },
    }).spawn();
    const stderr = new Response(child.stderr).text();
    const answers = await mcpSession(child, REQUESTS("greet").slice(0, 3));
    await child.status;
    const tools = (answers.get(2)!.result as { tools: { name: string }[] }).tools;
    assert.deepEqual(tools.map((t) => t.name), ["greet"]);
    assert.match(
      await stderr,
      new RegExp(
        `${project}/magi-tools\\.jsonc \\(next to --tools ${project}/tools\\) is not read: .*` +
          `pass --config ${project}/magi-tools\\.jsonc`,
      ),
    );
  } finally {
    await Deno.remove(root, { recursive: true }).catch(() => {});
  }
});
