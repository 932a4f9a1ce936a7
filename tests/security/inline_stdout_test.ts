/**
 * Attack family: an inline tool forging summary records on the host's stdout
 * (issue 23 item 8). What holds, and is documented (docs/cli.md "Tool output",
 * docs/tools.md `isolation: "inline"`): `console.*`, `Deno.stdout` (`write`,
 * `writeSync`, `writable`) and `process.stdout.write` of an inline tool go to
 * the host's stderr while `run` and `call` work, so ordinary output cannot
 * forge a record. What does not hold, and is documented as such: an inline
 * tool is host code, and a raw write to fd 1 (`node:fs` `writeSync(1, …)`,
 * `/dev/stdout`, a child process inheriting stdout) reaches stdout; this file
 * does not pretend otherwise.
 */
import assert from "node:assert/strict";
import { ROOT, runCli } from "../e2e/_cli.ts";

const TOOLS = `${ROOT}tests/security/fixtures/inline_tools`;
const VIA = [
  "console.log",
  "console.info",
  "console.debug",
  "console.dir",
  "console.table",
  "Deno.stdout.write",
  "Deno.stdout.writeSync",
  "Deno.stdout.writable",
  "process.stdout",
];

Deno.test("run: an inline tool's console and stdout-object writes go to stderr, not among the records", async () => {
  const result = await runCli(["run", "--format", "ndjson", "--tools", TOOLS, "loud_inline"]);
  assert.equal(result.code, 0, result.stderr);
  // runCli parsed every stdout line as a valid summary record; none is the tool's.
  assert.ok(!result.stdout.includes("forged_via"), result.stdout);
  const finished = result.records.filter((r) => r.type === "turn.finished");
  assert.equal(finished.length, 1);
  assert.equal(result.records.at(-1), finished[0], "the host's own turn.finished is the last line");
  for (const via of VIA) {
    assert.ok(result.stderr.includes(`"forged_via":"${via}"`), via);
  }
  // The legitimate use next to it: the tool's result still reaches the model.
  const reply = result.records.find((r) => r.type === "message" && r.partial === false);
  assert.match(String(reply?.text), /loud_inline → written/);
});

Deno.test("call: an inline tool's console and stdout-object writes go to stderr; stdout is the result", async () => {
  const result = await runCli(["call", "--tools", TOOLS, "loud_inline", "{}"], { raw: true });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "written\n");
  for (const via of VIA) assert.ok(result.stderr.includes(`"forged_via":"${via}"`), via);
});
