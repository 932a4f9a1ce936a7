/**
 * Attack family: forged frames on a tool process's channel (issue 23 item 11).
 * The tool module is the runner's `--preload`, so its top-level code runs
 * before the runner reads the init line: it can learn the frame token (here
 * by wrapping `JSON.parse`) and write frames. The docs (docs/tools.md, "Logs";
 * src/sandbox/runner.ts, channel.ts) now say so and say what the token
 * does protect. These tests pin both halves through `run`:
 * - a program the tool starts shares its stdout but not the token: its
 *   frame-shaped line is tool output (`tool.log`), never a result;
 * - a tool that has the token gains nothing over returning the same thing:
 *   a frame for a call that is not running is ignored, a log frame is bounded
 *   at 64 KiB and a forged result over `result_bytes` is `result_too_large`,
 *   checked by the host itself.
 * Both hold on the old code too: item 11 was a wrong claim, corrected in the docs.
 */
import assert from "node:assert/strict";
import { ROOT, runCli } from "../e2e/_cli.ts";

const TOOLS = `${ROOT}tests/security/fixtures/forger_tools`;

Deno.test("a frame-shaped line without the token, from a program the tool starts, is tool output", async () => {
  const result = await runCli(
    ["run", "--format", "ndjson", "--tools", TOOLS, 'frame_forger {"mode":"guess"}'],
  );
  assert.equal(result.code, 0, result.stderr);
  const call = result.records.find((r) => r.type === "tool.result");
  assert.equal(call?.outcome, "success");
  const log = result.records.find((r) => r.type === "tool.log");
  // deno-lint-ignore no-control-regex -- the frame mark is a control character
  assert.match(String(log?.text), /^\u001e0{64} \{"t":"result".*"text":"forged"\}\n$/);
  const reply = result.records.find((r) => r.type === "message" && r.partial === false);
  // The tool module itself did learn the token: the docs no longer claim otherwise.
  assert.match(String(reply?.text), /frame_forger → token captured: true/);
  assert.doesNotMatch(String(reply?.text), /forged/);
});

Deno.test("a tool that captured the token still gets only what the host's own checks allow", async () => {
  const result = await runCli(
    ["run", "--format", "ndjson", "--tools", TOOLS, 'frame_forger {"mode":"forge"}'],
  );
  assert.equal(result.code, 0, result.stderr);
  const call = result.records.find((r) => r.type === "tool.result");
  assert.equal(call?.outcome, "error");
  assert.equal(call?.error_code, "result_too_large", "the host measured the forged result");
  const log = result.records.find((r) => r.type === "tool.log");
  assert.ok(Number(log?.truncated_bytes) > 0, "the forged log was bounded by the host");
  assert.ok(String(log?.text).length <= 65_536 + 100);
  const reply = result.records.find((r) => r.type === "message" && r.partial === false);
  assert.doesNotMatch(String(reply?.text), /not my call/, "a frame for another call is ignored");
});
