/**
 * Decoding cost of strict request frames against plain `JSON.parse`.
 *
 * Run: `deno bench -A bench/decode_bench.ts`. Each group has `JSON.parse` of
 * the frame's text as its baseline. For byte input (what a pipe delivers) the
 * fair baseline is `TextDecoder + JSON.parse`; the full strict path is
 * `FrameDecoder + decodeRequest` (bytes with LF → framing, UTF-8, strict JSON,
 * envelope). Frames use the spec's shapes and are sized to what their labels
 * say (checked at load, all under the 65,536-byte input limit):
 *
 * - 100 B: a `session.open` request (about the smallest request with params).
 * - 4 KiB: an `initialize` with `client.tools` and a `client_tools` array of
 *   tool definitions (`local-agent-client-tools`, section 1).
 * - 64 KiB: the same `initialize` with 32 tools with larger input schemas,
 *   close to the input frame limit (the largest request a client sends).
 *
 * On a machine shared with other work the averages follow the load; compare
 * the `min` column (the cost without interference).
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

/** One tool definition; `properties` extra string properties make its schema bigger. */
function tool(index: number, properties: number): unknown {
  const props: Record<string, unknown> = {
    key: { type: "string", pattern: "^[A-Z]+-[0-9]+$", maxLength: 32 },
    verbose: { type: "boolean", description: 'Include the "full" history.' },
  };
  for (let p = 0; p < properties; p++) {
    props[`field_${p}`] = {
      type: "string",
      description: `Filter ${p}: matches the ticket's field exactly (case-sensitive).`,
      enum: ["open", "closed", "blocked", `custom_${p}`],
    };
  }
  return {
    name: `lookup_ticket_${index}`,
    description: "Fetch one ticket by its key.\nReturns the summary fields as JSON text.",
    input_schema: {
      type: "object",
      properties: props,
      required: ["key"],
      additionalProperties: false,
    },
    effect: index % 2 === 0 ? "read" : "write",
    timeout_ms: 30_000,
  };
}

/** An `initialize` with `tools` definitions of `properties` extra properties each. */
function initialize(id: string, tools: number, properties: number): string {
  return request(id, "initialize", {
    required_capabilities: ["client.tools", "session.create", "turn.start", "status", "shutdown"],
    client_tools: Array.from({ length: tools }, (_, i) => tool(i, properties)),
  });
}

/** The largest frame of `build(n)` whose byte length is at most `limit`. */
function largest(build: (n: number) => string, limit: number): string {
  let best = build(0);
  for (let n = 1; utf8(build(n)) <= limit; n++) best = build(n);
  return best;
}

const encoder = new TextEncoder();
function utf8(text: string): number {
  return encoder.encode(text).length;
}

const small = request("r1", "session.open", { session_id: "s1" });
const medium = largest((n) => initialize("r-000002", 10, n), 4096);
const large = largest((n) => initialize("r-000003", 32, n), INPUT_FRAME_BYTES - 64);

const sizes: [string, string, number, number][] = [
  ["100 B", small, 90, 112],
  ["4 KiB", medium, 3800, 4096],
  ["64 KiB", large, 60_000, INPUT_FRAME_BYTES],
];
for (const [label, text, min, max] of sizes) {
  const bytes = encoder.encode(text + "\n");
  const size = bytes.length - 1;
  if (size < min || size > max) {
    throw new RangeError(`Bench frame ${label} is ${size} bytes, not in ${min}..${max}`);
  }
  if (!decodeRequest(text).ok) throw new Error(`Bench frame ${label} does not decode`);
  const group = `${label} (${size} bytes)`;
  Deno.bench({ name: `JSON.parse ${label}`, group, baseline: true }, () => {
    JSON.parse(text);
  });
  Deno.bench({ name: `parseStrictJson ${label}`, group }, () => {
    parseStrictJson(text);
  });
  Deno.bench({ name: `decodeRequest ${label}`, group }, () => {
    decodeRequest(text);
  });
  const utf8Decoder = new TextDecoder("utf-8", { fatal: true });
  Deno.bench({ name: `TextDecoder + JSON.parse ${label}`, group }, () => {
    JSON.parse(utf8Decoder.decode(bytes.subarray(0, size)));
  });
  // One decoder per connection, as in the host and the backend.
  const decoder = new FrameDecoder();
  Deno.bench({ name: `FrameDecoder + decodeRequest ${label}`, group }, () => {
    for (const item of decoder.push(bytes)) {
      if (item.kind === "frame") decodeRequest(item.text);
    }
  });
}
