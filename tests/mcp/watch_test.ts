/**
 * Issue 35 item 6: `mcp --watch` reloads with `notifications/tools/list_changed`, driven by the
 * official MCP SDK client: a tool file edit, a broken edit (old set kept, the file on stderr),
 * a config edit that needs approval (refused, old set kept), and an upstream MCP server that
 * changes its tools.
 */

import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  CallToolResultSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { FULL_CLI, ROOT } from "../e2e/_cli.ts";
import { toolSource } from "../inspect/_inspector.ts";
import { eventually } from "../_wait.ts";
import { denoServer } from "./_config.ts";

const CHANGING_SERVER = `${ROOT}tests/mcp/fixtures/changing_server.ts`;

/** Put `text` at `path` in one step (a rename from the project root), never half written. */
async function place(root: string, path: string, text: string): Promise<void> {
  const temp = await Deno.makeTempFile({ dir: root, suffix: ".tmp" });
  await Deno.writeTextFile(temp, text);
  await Deno.rename(temp, path);
}

function tool(name: string): string {
  return toolSource(`export default defineTool({
  name: "${name}",
  description: "The tool ${name}.",
  input: z.strictObject({}),
  effect: "read",
  run: () => "${name} ran",
});`);
}

interface Watched {
  readonly client: Client;
  /** How many `notifications/tools/list_changed` arrived so far. */
  changes(): number;
  /** Resolves on the next `list_changed`. */
  nextChange(): Promise<void>;
  stderr(): string;
  close(): Promise<string>;
}

/** `mcp --watch …args` in `cwd` (its own empty trust store), connected with the SDK client. */
async function startWatch(cwd: string, args: string[]): Promise<Watched> {
  const env = { ...Deno.env.toObject(), NO_COLOR: "1", HOME: cwd, XDG_CONFIG_HOME: `${cwd}/.cfg` };
  delete (env as Record<string, string | undefined>)["MAGI_TOOLS_TRUST_CONFIG"];
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", ...FULL_CLI, "-A", `${ROOT}cli.ts`, "mcp", "--watch", ...args],
    cwd,
    env,
    stderr: "pipe",
  });
  let stderr = "";
  const pipe = transport.stderr as
    | { on(event: string, listener: (chunk?: Uint8Array) => void): void }
    | null;
  const ended = new Promise<void>((resolve) => {
    pipe?.on("data", (chunk) => stderr += new TextDecoder().decode(chunk));
    pipe?.on("end", () => resolve());
    if (pipe === null) resolve();
  });
  const client = new Client({ name: "test", version: "1.0.0" });
  let count = 0;
  let waiting: (() => void)[] = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    count++;
    for (const resolve of waiting.splice(0)) resolve();
  });
  await client.connect(transport);
  return {
    client,
    changes: () => count,
    nextChange: () => new Promise<void>((resolve) => waiting.push(resolve)),
    stderr: () => stderr,
    close: async () => {
      waiting = [];
      await client.close();
      await ended;
      return stderr;
    },
  };
}

async function names(client: Client): Promise<string[]> {
  return (await client.listTools()).tools.map((t: { name: string }) => t.name).sort();
}

async function withProject(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "magi-tools-mcp-watch-" });
  await Deno.mkdir(`${dir}/tools`);
  await Deno.writeTextFile(`${dir}/tools/alpha.ts`, tool("alpha"));
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("mcp --watch: a new tool file sends list_changed and tools/list shows it", async () => {
  await withProject(async (dir) => {
    const mcp = await startWatch(dir, ["--no-config", "--tools", `${dir}/tools`]);
    try {
      assert.equal(mcp.client.getServerCapabilities()?.tools?.listChanged, true);
      assert.deepEqual(await names(mcp.client), ["alpha"]);
      const changed = mcp.nextChange();
      await place(dir, `${dir}/tools/beta.ts`, tool("beta"));
      await changed;
      assert.deepEqual(await names(mcp.client), ["alpha", "beta"]);
      const result = await mcp.client.callTool({ name: "beta", arguments: {} });
      assert.deepEqual(result.content, [{ type: "text", text: "beta ran" }]);
    } finally {
      await mcp.close();
    }
  });
});

Deno.test("mcp --watch: a broken tool file keeps the old set, stderr names the file", async () => {
  await withProject(async (dir) => {
    const mcp = await startWatch(dir, ["--no-config", "--tools", `${dir}/tools`]);
    let stderr = "";
    try {
      await place(dir, `${dir}/tools/broken.ts`, "export default 42;\n");
      assert.ok(
        await eventually(() => /not reloaded/.test(mcp.stderr()), 60_000),
        mcp.stderr(),
      );
      assert.match(mcp.stderr(), /broken\.ts/);
      assert.deepEqual(await names(mcp.client), ["alpha"]);
      assert.equal(mcp.changes(), 0);
      const result = await mcp.client.callTool({ name: "alpha", arguments: {} });
      assert.deepEqual(result.content, [{ type: "text", text: "alpha ran" }]);
    } finally {
      stderr = await mcp.close();
    }
    assert.doesNotMatch(stderr, /^\s+at /m);
  });
});

Deno.test("mcp --watch: a config edit that needs approval is refused, the old set kept", async () => {
  await withProject(async (dir) => {
    await Deno.writeTextFile(`${dir}/magi-tools.jsonc`, "{}\n");
    const mcp = await startWatch(dir, []);
    try {
      assert.deepEqual(await names(mcp.client), ["alpha"]);
      // Starting a command needs the user's approval, also when the file changes while served.
      await place(
        dir,
        `${dir}/magi-tools.jsonc`,
        JSON.stringify({ mcpServers: { up: denoServer(CHANGING_SERVER) } }),
      );
      assert.ok(
        await eventually(() => /config not reloaded/.test(mcp.stderr()), 60_000),
        mcp.stderr(),
      );
      assert.match(mcp.stderr(), /magi-tools\.jsonc/);
      assert.match(mcp.stderr(), /trust/);
      assert.deepEqual(await names(mcp.client), ["alpha"]);
      assert.equal(mcp.changes(), 0);
    } finally {
      await mcp.close();
    }
  });
});

Deno.test("mcp --watch: an upstream server's list_changed reaches the client's tools/list", async () => {
  await withProject(async (dir) => {
    const servers = `${dir}/servers.json`;
    await Deno.writeTextFile(
      servers,
      JSON.stringify({ mcpServers: { up: denoServer(CHANGING_SERVER) } }),
    );
    const mcp = await startWatch(dir, [
      "--no-config",
      "--mcp-config",
      servers,
      "--tools",
      `${dir}/tools`,
    ]);
    try {
      assert.deepEqual(await names(mcp.client), ["alpha", "up_grow"]);
      const changed = mcp.nextChange();
      const grew = await mcp.client.callTool(
        { name: "up_grow", arguments: {} },
        CallToolResultSchema,
      );
      assert.deepEqual(grew.content, [{ type: "text", text: "grew" }]);
      await changed;
      assert.deepEqual(await names(mcp.client), ["alpha", "up_grow", "up_grown"]);
      const result = await mcp.client.callTool({ name: "up_grown", arguments: {} });
      assert.deepEqual(result.content, [{ type: "text", text: "here" }]);
    } finally {
      await mcp.close();
    }
  });
});
