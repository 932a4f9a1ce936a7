/**
 * Issue 26 item 1: Gemini CLI adds `wait_for_previous` to every tool call. The MCP front door
 * drops exactly that key when the tool's schema does not declare it; every other undeclared key
 * still fails the strict schema; a tool declaring it receives it; the `client.tools` path
 * (`magi-tools call`, as `run` and `batch` validate) is unchanged.
 */

import assert from "node:assert/strict";
import { CLIENT_ADDED_KEYS, dropClientKeys } from "../../src/mcp/client_keys.ts";
import { FULL_CLI, ROOT } from "../e2e/_cli.ts";
import { startMcpStdio } from "./_stdio.ts";

const TOOLS = `${ROOT}tests/mcp/fixtures/door_tools`;

interface CallResult {
  content: { type: string; text?: string }[];
  isError?: boolean;
}

Deno.test("dropClientKeys() drops exactly wait_for_previous, and only when undeclared", () => {
  assert.deepEqual(CLIENT_ADDED_KEYS, ["wait_for_previous"]);
  const schema = { type: "object", properties: { text: { type: "string" } } };
  assert.deepEqual(dropClientKeys({ text: "a", wait_for_previous: true }, schema), { text: "a" });
  assert.deepEqual(dropClientKeys({ text: "a", other: 1 }, schema), { text: "a", other: 1 });
  const declared = { type: "object", properties: { wait_for_previous: { type: "boolean" } } };
  assert.deepEqual(dropClientKeys({ wait_for_previous: false }, declared), {
    wait_for_previous: false,
  });
  assert.deepEqual(dropClientKeys({ wait_for_previous: 1 }, { type: "object" }), {});
  const args = { text: "a" };
  assert.equal(dropClientKeys(args, schema), args, "unchanged arguments are not copied");
});

Deno.test("mcp: a Gemini-style wait_for_previous passes a strict schema; other unknown keys still fail", async () => {
  const mcp = await startMcpStdio(TOOLS);
  try {
    const call = (name: string, args: Record<string, unknown>) =>
      mcp.client.callTool({ name, arguments: args }) as Promise<CallResult>;
    const gemini = await call("strict_echo", { text: "a", wait_for_previous: true });
    assert.equal(gemini.isError, undefined, gemini.content[0]?.text);
    assert.equal(gemini.content[0]!.text, '{"keys":["text"]}');

    const other = await call("strict_echo", { text: "a", wait_for_previous: true, other: 1 });
    assert.equal(other.isError, true);
    assert.match(other.content[0]!.text!, /^Invalid arguments: .*Unrecognized key.*"other"/);
    assert.doesNotMatch(other.content[0]!.text!, /wait_for_previous/);

    const declared = await call("wants_wait", { wait_for_previous: true });
    assert.equal(declared.content[0]!.text, '{"wait_for_previous":true}');
  } finally {
    await mcp.close();
  }
});

Deno.test("client.tools validation is unchanged: magi-tools call refuses wait_for_previous", async () => {
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      ...FULL_CLI,
      "-A",
      `${ROOT}cli.ts`,
      "call",
      "strict_echo",
      '{"text":"a","wait_for_previous":true}',
      "--no-config",
      "--tools",
      TOOLS,
    ],
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdin: "null",
  }).output();
  const text = new TextDecoder().decode(output.stdout) + new TextDecoder().decode(output.stderr);
  assert.notEqual(output.code, 0, text);
  assert.match(text, /Unrecognized key.*"wait_for_previous"/);
});
