import assert from "node:assert/strict";
import { one, ROOT, runCli } from "./_cli.ts";
import { matchGolden } from "./golden.ts";

Deno.test("demo prints the golden NDJSON and exits 0", async () => {
  const result = await runCli(["demo"], { env: { MAGI_CODE_AGENT: "" } });
  assert.equal(result.code, 0, result.stderr);
  const golden = await Deno.readTextFile(`${ROOT}tests/e2e/golden/demo.ndjson`);
  const mismatch = matchGolden(golden, result.records);
  assert.equal(mismatch, null, `${mismatch}\nstdout:\n${result.stdout}`);
  const text = String(one(result.records, "message").text);
  assert.match(text, /text_stats → \{"lines":2,"words":5/);
  assert.match(text, /ticket_lookup → \{"id":"MAGI-7","title":"Tool results over the frame bound"/);
  assert.match(text, /read_text → \{"path":"deno.json"/);
});
