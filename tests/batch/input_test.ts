import assert from "node:assert/strict";
import { parseBatchInput } from "../../src/batch/input.ts";
import { isHostError } from "../../src/errors/mod.ts";

function fails(text: string, pattern: RegExp): void {
  assert.throws(
    () => parseBatchInput(text, "in.jsonl"),
    (e: Error) => isHostError(e, "batch_input") && pattern.test(e.message),
  );
}

Deno.test("parseBatchInput() reads items with their line numbers, skipping blank lines", () => {
  const items = parseBatchInput(
    '{"id":"a","prompt":"one"}\r\n\n  \n{"id":"b.2_x-y","prompt":"two","session":"s1","cwd":"sub"}',
    "in.jsonl",
  );
  assert.deepEqual(items, [
    { id: "a", prompt: "one", line: 1 },
    { id: "b.2_x-y", prompt: "two", session: "s1", cwd: "sub", line: 4 },
  ]);
});

Deno.test("parseBatchInput() names the line of a duplicate id and of its first use", () => {
  fails(
    '{"id":"a","prompt":"x"}\n{"id":"b","prompt":"x"}\n{"id":"a","prompt":"y"}\n',
    /in\.jsonl:3.*line 1/,
  );
});

Deno.test("parseBatchInput() rejects bad lines naming file and line", () => {
  fails('{"id":"a","prompt":"x"}\n{nope\n', /not JSON: in\.jsonl:2/);
  fails("[1]\n", /not a JSON object: in\.jsonl:1/);
  fails('{"id":"a/b","prompt":"x"}', /id must match.*in\.jsonl:1/);
  fails('{"id":"..","prompt":"x"}', /id must match.*in\.jsonl:1/);
  fails(`{"id":"${"x".repeat(65)}","prompt":"x"}`, /id must match/);
  fails('{"id":7,"prompt":"x"}', /id must match/);
  fails('{"id":"a","prompt":"  "}', /prompt must be a non-blank string: in\.jsonl:1/);
  fails('{"id":"a"}', /prompt must be/);
  fails('{"id":"a","prompt":"x","model":"m"}', /unknown key model: in\.jsonl:1/);
  fails('{"id":"a","prompt":"x","session":""}', /session must be/);
  fails('{"id":"a","prompt":"x","cwd":3}', /cwd must be/);
});
