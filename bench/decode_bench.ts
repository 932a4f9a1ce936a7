/**
 * Decoding cost of strict request frames against plain `JSON.parse`.
 *
 * Run: `deno bench -A bench/decode_bench.ts`. Each group has `JSON.parse` as
 * its baseline, so the table shows how many times slower the strict path is.
 * Frames are realistic requests: a small `status`, a nested `initialize`-like
 * frame (~4 KiB) and a `client.tool.result` with a long text (~64 KiB).
 *
 * @module
 */

import { decodeRequest } from "../src/protocol/envelope.ts";
import { FrameDecoder } from "../src/protocol/framing.ts";
import { parseStrictJson } from "../src/protocol/json.ts";
import { INPUT_FRAME_BYTES } from "../src/protocol/limits.ts";

function request(id: string, method: string, params: unknown): string {
  return JSON.stringify({ protocol: "magi-code.local-agent", version: 1, id, method, params });
}

/** About 100 bytes. */
const small = request("r-000001", "session.open", { session_id: "s-01" });

/** About 4 KiB: a nested initialize frame with client tool definitions. */
function nestedInitialize(): string {
  const tools = [];
  for (let i = 0; tools.length < 32; i++) {
    tools.push({
      name: `tool_${i}`,
      description: "Looks up a ticket by its key and returns the summary fields.",
      input_schema: {
        type: "object",
        properties: { key: { type: "string", maxLength: 32 }, verbose: { type: "boolean" } },
        required: ["key"],
        additionalProperties: false,
      },
      timeout_ms: 30000,
    });
    const text = request("r-000002", "initialize", {
      required_capabilities: ["status", "shutdown", "client.tools"],
      client_tools: { version: 1, tools },
    });
    if (text.length > 4096 - 300) break;
  }
  return request("r-000002", "initialize", {
    required_capabilities: ["status", "shutdown", "client.tools"],
    client_tools: { version: 1, tools },
  });
}
const medium = nestedInitialize();

/** About 64 KiB: a client.tool.result with a long text containing escapes. */
function toolResult(): string {
  const line = 'src/main.ts:12:  const value = "quoted \\ path";\tfound match é\n';
  let text = "";
  while (text.length < 50_000) text += line;
  const frame = request("r-000003", "client.tool.result", {
    session_id: "s-01",
    run_id: "run-01",
    call_id: "call-01",
    part: { index: 0, final: true, content: [{ type: "text", text }] },
  });
  return frame;
}
const large = toolResult();

const encoder = new TextEncoder();
const sizes: [string, string][] = [["100 B", small], ["4 KiB", medium], ["64 KiB", large]];
for (const [label, text] of sizes) {
  const bytes = encoder.encode(text + "\n");
  if (bytes.length - 1 > INPUT_FRAME_BYTES) throw new RangeError(`Bench frame too large: ${label}`);
  const group = `${label} (${bytes.length - 1} bytes)`;
  Deno.bench({ name: `JSON.parse ${label}`, group, baseline: true }, () => {
    JSON.parse(text);
  });
  Deno.bench({ name: `parseStrictJson ${label}`, group }, () => {
    parseStrictJson(text);
  });
  // One decoder per connection, as in the host and the backend.
  const decoder = new FrameDecoder();
  Deno.bench({ name: `FrameDecoder + decodeRequest ${label}`, group }, () => {
    for (const item of decoder.push(bytes)) {
      if (item.kind === "frame") decodeRequest(item.text);
    }
  });
  const utf8 = new TextDecoder("utf-8", { fatal: true });
  Deno.bench({ name: `TextDecoder + JSON.parse ${label}`, group }, () => {
    JSON.parse(utf8.decode(bytes.subarray(0, bytes.length - 1)));
  });
}
