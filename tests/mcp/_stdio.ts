/** `magi-tools mcp` over stdio for tests: the SDK client, and the server's stderr collected. */

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { FULL_CLI, ROOT } from "../e2e/_cli.ts";

/** The `deno` arguments of `mcp --no-config --tools DIR …extra` from this checkout (full CLI, `-A`). */
export function mcpArgs(tools: string, extra: readonly string[] = []): string[] {
  return [
    "run",
    ...FULL_CLI,
    "-A",
    `${ROOT}cli.ts`,
    "mcp",
    "--no-config",
    "--tools",
    tools,
    ...extra,
  ];
}

/** A connected client and the server's stderr. */
export interface StdioMcp {
  readonly client: Client;
  /** Close the client, wait for the server's stderr to end; resolves with all of it. */
  close(): Promise<string>;
}

/** Start `mcp --no-config --tools DIR …args` and connect the SDK client. */
export async function startMcpStdio(tools: string, args: string[] = []): Promise<StdioMcp> {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: mcpArgs(tools, args),
    cwd: ROOT,
    env: { ...Deno.env.toObject(), NO_COLOR: "1" },
    stderr: "pipe",
  });
  let stderr = "";
  // The SDK's stderr pipe exists before start(): a Node stream.
  const pipe = transport.stderr as
    | { on(event: string, listener: (chunk?: Uint8Array) => void): void }
    | null;
  const ended = new Promise<void>((resolve) => {
    pipe?.on("data", (chunk) => stderr += new TextDecoder().decode(chunk));
    pipe?.on("end", () => resolve());
    if (pipe === null) resolve();
  });
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(transport);
  return {
    client,
    close: async () => {
      await client.close();
      await ended;
      return stderr;
    },
  };
}
