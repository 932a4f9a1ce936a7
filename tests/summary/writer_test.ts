import assert from "node:assert/strict";
import type { Clock } from "../../src/async/clock.ts";
import { FakeTime } from "../_fake_time.ts";
import { SummaryRecordSchema } from "../../src/summary/records.ts";
import {
  SELF_CHECK_ENV,
  selfCheckFromEnv,
  SUMMARY_BATCH_CHARS,
  SUMMARY_LINGER_MS,
  SummaryWriter,
} from "../../src/summary/writer.ts";

/** A writer over a capturing sink; `lines` are the lines written, `writes` the sink calls. */
function capture(clock?: Clock): { lines: string[]; writes: string[]; writer: SummaryWriter } {
  const lines: string[] = [];
  const writes: string[] = [];
  const decoder = new TextDecoder();
  const writer = new SummaryWriter((bytes) => {
    const chunk = decoder.decode(bytes);
    writes.push(chunk);
    lines.push(...chunk.split(/(?<=\n)/));
    return Promise.resolve();
  }, {
    now: () => new Date("2026-01-02T03:04:05.678Z"),
    selfCheck: true,
    ...(clock === undefined ? {} : { clock }),
  });
  return { lines, writes, writer };
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

Deno.test("SummaryWriter stamps each record with its own clock reading, the same ms the same text", () => {
  const readings = [
    new Date("2026-01-02T03:04:05.678Z"),
    new Date("2026-01-02T03:04:05.678Z"),
    new Date("2026-01-02T03:04:05.679Z"),
    new Date("2026-01-02T03:04:05.678Z"),
    new Date(Number.NaN),
  ];
  const writer = new SummaryWriter(() => Promise.resolve(), { now: () => readings.shift()! });
  const stamp = () => writer.emit({ type: "turn.started", session_id: "s1", run_id: "r1" }).ts;
  assert.deepEqual([stamp(), stamp(), stamp(), stamp()], [
    "2026-01-02T03:04:05.678Z",
    "2026-01-02T03:04:05.678Z",
    "2026-01-02T03:04:05.679Z",
    "2026-01-02T03:04:05.678Z",
  ]);
  // An invalid clock reading is not hidden behind the last text.
  assert.throws(stamp, RangeError);
});

Deno.test("SummaryWriter rejects a record that does not match its schema", () => {
  const { writer } = capture();
  assert.throws(
    // deno-lint-ignore no-explicit-any
    () => writer.emit({ type: "session", session_id: "", durable: false } as any),
    TypeError,
  );
});

Deno.test("SummaryWriter without selfCheck does not validate records (typed code builds them)", async () => {
  const written: string[] = [];
  const writer = new SummaryWriter((bytes) => {
    written.push(new TextDecoder().decode(bytes));
    return Promise.resolve();
  }, { selfCheck: false });
  // deno-lint-ignore no-explicit-any
  writer.emit({ type: "session", session_id: "", durable: false } as any);
  await writer.flush();
  assert.equal(written.length, 1);
});

Deno.test("SummaryWriter selfCheck defaults to MAGI_TOOLS_SELF_CHECK=1", () => {
  // Each environment its own: the suite's other modules run at the same time (--parallel).
  const envOf = (value: string | undefined) => (name: string) =>
    name === SELF_CHECK_ENV ? value : undefined;
  assert.equal(selfCheckFromEnv(envOf("1")), true);
  assert.equal(selfCheckFromEnv(envOf("0")), false);
  assert.equal(selfCheckFromEnv(envOf(undefined)), false);
  assert.equal(
    selfCheckFromEnv(() => {
      throw new Deno.errors.NotCapable("no env access");
    }),
    false,
  );
  // Without an argument it reads the process's variable (the suite's test task sets it to 1).
  const defaultOn = Deno.env.get(SELF_CHECK_ENV) === "1";
  assert.equal(selfCheckFromEnv(), defaultOn);
  // deno-lint-ignore no-explicit-any
  const emitBad = () => new SummaryWriter(() => Promise.resolve()).emit({ type: "session" } as any);
  if (defaultOn) assert.throws(emitBad, TypeError);
  else assert.doesNotThrow(emitBad);
});

Deno.test("SummaryWriter writes the records emitted within lingerMs in one write, in order", async () => {
  const time = new FakeTime();
  const { lines, writes, writer } = capture(time);
  writer.emit({ type: "turn.started", session_id: "s1", run_id: "r0" });
  await time.tick(1);
  for (let n = 1; n < 5; n++) {
    writer.emit({ type: "turn.started", session_id: "s1", run_id: `r${n}` });
  }
  await time.tick(SUMMARY_LINGER_MS - 2);
  assert.equal(writes.length, 0); // The first record waits up to SUMMARY_LINGER_MS for others.
  await time.tick(1);
  assert.equal(writes.length, 1);
  assert.deepEqual(lines.map((line) => JSON.parse(line).run_id), ["r0", "r1", "r2", "r3", "r4"]);
});

Deno.test("SummaryWriter writes at once when SUMMARY_BATCH_CHARS are queued", async () => {
  const { writes, writer } = capture();
  const line = JSON.stringify(
    writer.emit({ type: "turn.started", session_id: "s1", run_id: "r0" }),
  ).length + 1;
  for (let n = line; n < SUMMARY_BATCH_CHARS; n += line) {
    writer.emit({ type: "turn.started", session_id: "s1", run_id: "r0" });
  }
  await Promise.resolve();
  assert.equal(writes.length, 1);
  await writer.flush();
});

Deno.test("SummaryWriter rejects a negative lingerMs", () => {
  assert.throws(() => new SummaryWriter(() => Promise.resolve(), { lingerMs: -1 }), RangeError);
});

Deno.test("SummaryWriter queues records emitted during a write for the next write", async () => {
  const writes: string[] = [];
  let release: () => void = () => {};
  const writer = new SummaryWriter((bytes) => {
    writes.push(new TextDecoder().decode(bytes));
    return writes.length === 1
      ? new Promise<void>((resolve) => release = resolve)
      : Promise.resolve();
  }, { selfCheck: true });
  writer.emit({ type: "turn.started", session_id: "s", run_id: "r1" });
  const first = writer.flush();
  writer.emit({ type: "turn.started", session_id: "s", run_id: "r2" });
  writer.emit({ type: "turn.started", session_id: "s", run_id: "r3" });
  assert.equal(writes.length, 1);
  release();
  await first;
  assert.equal(writes.length, 2);
  assert.deepEqual(
    writes[1]!.trimEnd().split("\n").map((line) => JSON.parse(line).run_id),
    ["r2", "r3"],
  );
});

Deno.test("SummaryWriter gives records emitted during a write the linger again, unless flushed or full", async () => {
  const time = new FakeTime();
  const writes: string[] = [];
  let release: () => void = () => {};
  const writer = new SummaryWriter((bytes) => {
    writes.push(new TextDecoder().decode(bytes));
    return new Promise<void>((resolve) => release = resolve);
  }, { selfCheck: true, clock: time });
  const runIds = (write: string) =>
    write.trimEnd().split("\n").map((line) => JSON.parse(line).run_id);
  writer.emit({ type: "turn.started", session_id: "s", run_id: "r1" });
  await time.tick(SUMMARY_LINGER_MS);
  assert.equal(writes.length, 1); // r1's write is held open.
  writer.emit({ type: "turn.started", session_id: "s", run_id: "r2" });
  writer.emit({ type: "turn.started", session_id: "s", run_id: "r3" });
  release();
  await time.tick(0);
  assert.equal(writes.length, 1); // r2 and r3 wait for the linger, as r1 did...
  await time.tick(SUMMARY_LINGER_MS - 1);
  writer.emit({ type: "turn.started", session_id: "s", run_id: "r4" });
  assert.equal(writes.length, 1);
  await time.tick(1);
  assert.equal(writes.length, 2); // ...and share one write with r4, who came during it.
  assert.deepEqual(runIds(writes[1]!), ["r2", "r3", "r4"]);
  // A full batch queued during a write goes out right after it.
  const line = writes[1]!.length / 3;
  for (let n = 0; n < SUMMARY_BATCH_CHARS; n += line) {
    writer.emit({ type: "turn.started", session_id: "s", run_id: "r5" });
  }
  release();
  await time.tick(0);
  assert.equal(writes.length, 3);
  // flush() writes everything, also what comes during its writes.
  writer.emit({ type: "turn.started", session_id: "s", run_id: "r6" });
  const flushed = writer.flush();
  writer.emit({ type: "turn.started", session_id: "s", run_id: "r7" });
  release();
  await time.tick(0);
  assert.equal(writes.length, 4);
  assert.deepEqual(runIds(writes[3]!), ["r6", "r7"]);
  release();
  await flushed;
  assert.equal(writes.length, 4);
});

Deno.test("SummaryWriter after a failed write aborts its failure signal and discards later records", async () => {
  let calls = 0;
  let reported: unknown = null;
  const writer = new SummaryWriter(() => {
    calls++;
    return Promise.reject(new Error("EPIPE"));
  }, { onError: (error) => reported = error, selfCheck: true });
  writer.emit({ type: "turn.started", session_id: "s", run_id: "r1" });
  await writer.flush();
  assert.equal(writer.failed, true);
  assert.equal(writer.failure.aborted, true);
  assert.equal((reported as Error).message, "EPIPE");
  const record = writer.emit({ type: "turn.started", session_id: "s", run_id: "r2" });
  assert.equal(record.type, "turn.started");
  await writer.flush();
  assert.equal(calls, 1);
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

Deno.test("SummaryRecordSchema rejects unknown fields (arguments only as the opt-in `arguments` object)", () => {
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
    raw_arguments: {},
  };
  assert.equal(SummaryRecordSchema.safeParse(record).success, false);
  // --record-args: the redacted arguments as an object, nothing else.
  const { raw_arguments: _raw, ...known } = record;
  assert.equal(SummaryRecordSchema.safeParse({ ...known, arguments: {} }).success, true);
  assert.equal(SummaryRecordSchema.safeParse({ ...known, arguments: "{}" }).success, false);
});
