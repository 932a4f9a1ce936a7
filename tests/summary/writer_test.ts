import assert from "node:assert/strict";
import { SummaryRecordSchema } from "../../src/summary/records.ts";
import { SummaryWriter } from "../../src/summary/writer.ts";

function capture(): { lines: string[]; writer: SummaryWriter } {
  const lines: string[] = [];
  const decoder = new TextDecoder();
  const writer = new SummaryWriter((bytes) => {
    lines.push(decoder.decode(bytes));
    return Promise.resolve();
  }, { now: () => new Date("2026-01-02T03:04:05.678Z") });
  return { lines, writer };
}

Deno.test("SummaryWriter writes one JSON object per line with ts and v", async () => {
  const { lines, writer } = capture();
  writer.emit({ type: "session", session_id: "s1", durable: false, resumed: false });
  writer.emit({ type: "turn.started", session_id: "s1", run_id: "r1" });
  await writer.flush();
  assert.equal(lines.length, 2);
  for (const line of lines) {
    assert.ok(line.endsWith("\n") && !line.slice(0, -1).includes("\n"));
    const record = JSON.parse(line);
    assert.equal(record.v, 1);
    assert.equal(record.ts, "2026-01-02T03:04:05.678Z");
    assert.ok(SummaryRecordSchema.safeParse(record).success);
  }
  assert.equal(JSON.parse(lines[0]!).type, "session");
});

Deno.test("SummaryWriter rejects a record that does not match its schema", () => {
  const { writer } = capture();
  assert.throws(
    // deno-lint-ignore no-explicit-any
    () => writer.emit({ type: "session", session_id: "", durable: false } as any),
    TypeError,
  );
});

Deno.test("SummaryWriter reports a failing sink once and keeps accepting records", async () => {
  let errors = 0;
  const writer = new SummaryWriter(() => Promise.reject(new Error("closed")), {
    onError: () => errors++,
  });
  writer.emit({ type: "session", session_id: "s", durable: true, resumed: true });
  writer.emit({ type: "session", session_id: "s", durable: true, resumed: true });
  await writer.flush();
  assert.equal(errors, 1);
});

Deno.test("SummaryRecordSchema rejects unknown fields (no raw arguments leak in)", () => {
  const record = {
    type: "tool.call",
    ts: "2026-01-02T03:04:05.678Z",
    v: 1,
    run_id: "r",
    call_id: "c",
    name: "t",
    tool_id: "x",
    arguments_bytes: 2,
    deadline_ms: 1,
    arguments: {},
  };
  assert.equal(SummaryRecordSchema.safeParse(record).success, false);
});
