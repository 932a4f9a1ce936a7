/** The terminal view renders summary records (unit tests, fake clock). */
// deno-lint-ignore-file no-control-regex -- the tests match ANSI escape sequences
import assert from "node:assert/strict";
import { colorFromEnv, TextView } from "../../src/summary/text_view.ts";
import { SummaryWriter } from "../../src/summary/writer.ts";
import type { SummaryInput } from "../../src/summary/records.ts";
import { FakeTime } from "../_fake_time.ts";

function view(options: { color?: boolean; live?: boolean; prompt?: string } = {}) {
  let out = "";
  let now = 0;
  const time = new FakeTime();
  const textView = new TextView({
    write: (bytes) => {
      out += new TextDecoder().decode(bytes);
      return Promise.resolve();
    },
    color: options.color ?? false,
    live: options.live ?? false,
    now: () => now,
    frameMs: 5,
    clock: time,
    ...(options.prompt === undefined ? {} : { prompt: options.prompt }),
  });
  const writer = new SummaryWriter(textView.sink, { selfCheck: true, lingerMs: 0 });
  return {
    textView,
    time,
    emit: async (record: SummaryInput, at?: number) => {
      if (at !== undefined) now = at;
      writer.emit(record);
      await writer.flush();
    },
    out: () => out,
    setNow: (ms: number) => {
      now = ms;
    },
  };
}

const call = (id: string, name: string, preview?: string): SummaryInput => ({
  type: "tool.call",
  run_id: "r1",
  call_id: id,
  name,
  tool_id: "0".repeat(64),
  arguments_bytes: 12,
  deadline_ms: 120_000,
  ...(preview === undefined ? {} : { arguments_preview: preview }),
});

const result = (id: string, name: string, outcome: "success" | "error"): SummaryInput => ({
  type: "tool.result",
  run_id: "r1",
  call_id: id,
  name,
  outcome,
  error_code: outcome === "error" ? "tool_failed" : null,
  bytes: 5,
  parts: 1,
  duration_ms: 1500,
  abandoned: false,
  killed: false,
  delivery: "complete",
  delivery_error: null,
});

Deno.test("TextView renders a turn as plain lines (not live, no colour)", async () => {
  const v = view({ prompt: "do it" });
  await v.emit({ type: "message.delta", run_id: "r1", message_id: "m1", part: 0, text: "Hel" });
  await v.emit({ type: "message.delta", run_id: "r1", message_id: "m1", part: 1, text: "lo" });
  await v.emit({ type: "message", run_id: "r1", message_id: "m1", text: "Hello", partial: false });
  await v.emit(call("c1", "text_stats", '{"text":"a"}'));
  await v.emit({
    type: "tool.log",
    run_id: "r1",
    call_id: "c1",
    name: "text_stats",
    text: "one\ntwo\n",
    bytes: 8,
    truncated_bytes: 0,
  });
  await v.emit(result("c1", "text_stats", "success"));
  await v.emit(call("c2", "other"));
  await v.emit(result("c2", "other", "error"));
  await v.emit({ type: "message", run_id: "r1", message_id: "m2", text: "Bye", partial: false });
  await v.emit({
    type: "turn.finished",
    session_id: "s1",
    run_id: "r1",
    outcome: "completed",
    persistence: "durable",
    revision: "3",
    error_code: null,
    cancelled_by: null,
    exit_code: 0,
  }, 2500);
  await v.textView.close();
  assert.equal(
    v.out(),
    [
      "❯ do it",
      "Hello",
      '→ text_stats {"text":"a"}',
      "  │ one",
      "  │ two",
      "✔ text_stats 1.5 s · 5 B",
      "→ other 12 bytes of arguments",
      "✘ other tool_failed 1.5 s",
      "Bye",
      "✔ completed · 2 calls · 2.5 s · exit 0",
      "",
    ].join("\n"),
  );
});

Deno.test("TextView ends streamed text before a line and closes once after host.error", async () => {
  const v = view();
  await v.emit({ type: "message.delta", run_id: "r1", message_id: "m1", part: 0, text: "partial" });
  await v.emit({ type: "host.error", code: "interrupted", message: "Interrupted", exit_code: 130 });
  await v.textView.close();
  assert.equal(
    v.out(),
    "partial\n✘ interrupted: Interrupted\n✘ interrupted · 0 calls · 0 ms · exit 130\n",
  );
});

Deno.test("TextView live: a spinner with elapsed time while calls run, cleared before lines", async () => {
  const v = view({ live: true, color: true });
  await v.emit(call("c1", "slow", "{}"), 0);
  v.setNow(1234);
  await v.time.tick(30);
  await v.emit(result("c1", "slow", "success"));
  await v.textView.close();
  const out = v.out();
  assert.match(out, /\x1b\[36m[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]\x1b\[0m slow 1\.2s/);
  // The status line is cleared in place before the result line.
  assert.match(out, /\r\x1b\[K\x1b\[32m✔\x1b\[0m slow/);
  const frames = out.split("\r\x1b[K").length;
  assert.equal(v.time.pending, 0, "no spinner timer left");
  await v.time.tick(30);
  // v.out(), not the `out` read before the wait (that one could not change).
  assert.equal(v.out().split("\r\x1b[K").length, frames, "the spinner stopped with the last call");
});

Deno.test("TextView.beforePrompt() clears the status line and pauses the spinner", async () => {
  const v = view({ live: true });
  await v.emit(call("c1", "slow", "{}"));
  await v.textView.beforePrompt();
  const before = v.out();
  assert.ok(before.endsWith("\r\x1b[K"), JSON.stringify(before));
  await v.time.tick(30);
  assert.equal(v.out(), before, "no frames while the question is asked");
  v.textView.afterPrompt();
  await v.emit(result("c1", "slow", "success"));
  await v.textView.close();
  assert.ok(v.out().length > before.length);
});

Deno.test("colorFromEnv() follows NO_COLOR, then FORCE_COLOR, then the terminal", () => {
  const env = (vars: Record<string, string>) => (name: string) => vars[name];
  assert.equal(colorFromEnv(env({}), true), true);
  assert.equal(colorFromEnv(env({}), false), false);
  assert.equal(colorFromEnv(env({ NO_COLOR: "1", FORCE_COLOR: "1" }), true), false);
  assert.equal(colorFromEnv(env({ NO_COLOR: "" }), true), true);
  assert.equal(colorFromEnv(env({ FORCE_COLOR: "1" }), false), true);
  assert.equal(colorFromEnv(env({ FORCE_COLOR: "0" }), true), false);
});

Deno.test("TextView's sink rejects once the terminal cannot be written (the writer reports it)", async () => {
  const view = new TextView({
    write: () => Promise.reject(new Error("EPIPE")),
    color: false,
    live: false,
  });
  const failures: unknown[] = [];
  const writer = new SummaryWriter(view.sink, {
    lingerMs: 0,
    onError: (error) => failures.push(error),
  });
  writer.emit({ type: "message", run_id: "r1", message_id: "m1", text: "x", partial: false });
  await writer.flush();
  assert.equal(writer.failed, true);
  assert.match(String(failures[0]), /EPIPE/);
  await view.close();
});

Deno.test("TextView shows host.warning lines and tool.progress in the live status", async () => {
  const v = view({ live: true });
  await v.emit({ type: "host.warning", code: "source_unavailable", message: "mcp:fs is down" });
  await v.emit(call("c1", "long", "{}"));
  await v.emit({
    type: "tool.progress",
    run_id: "r1",
    call_id: "c1",
    name: "long",
    progress: 2,
    total: 5,
  });
  await v.time.tick(20);
  await v.emit(result("c1", "long", "success"));
  await v.textView.close();
  assert.match(v.out(), /! source_unavailable: mcp:fs is down\n/);
  assert.match(v.out(), /long \d\.\ds \(2\/5\)/);
});

Deno.test("TextView shows control characters of every record text visibly; only its own escapes are raw", async () => {
  const hostile = "A\x1b]0;t\x07B\u009b2JC\rD";
  const shown = "A\\x1b]0;t\\x07B\\u009b2JC\\rD";
  const v = view({ live: true, color: true, prompt: `ask ${hostile}` });
  await v.emit(call("c1", "long", `{"q":"${hostile}"}`));
  await v.emit({
    type: "tool.progress",
    run_id: "r1",
    call_id: "c1",
    name: "long",
    progress: 1,
    message: hostile,
  });
  await v.time.tick(20);
  await v.emit({
    type: "tool.log",
    run_id: "r1",
    call_id: "c1",
    name: "long",
    text: `${hostile}\n\tindented Ä\n`,
    bytes: 30,
    truncated_bytes: 0,
  });
  await v.emit(result("c1", "long", "success"));
  await v.emit({ type: "message.delta", run_id: "r1", message_id: "m1", part: 0, text: hostile });
  await v.emit({ type: "message", run_id: "r1", message_id: "m1", text: hostile, partial: false });
  await v.emit({ type: "diagnostic", run_id: "r1", code: "x", summary: hostile });
  await v.textView.close();
  // What is left after the view's own sequences (colours, the status redraw) holds no control.
  const own = v.out().replace(/\x1b\[\d+m/g, "").replaceAll("\r\x1b[K", "");
  assert.doesNotMatch(own.replaceAll("\n", "").replaceAll("\t", ""), /[\x00-\x1f\x7f-\x9f]/);
  assert.ok(own.includes(`❯ ask ${shown}`));
  assert.ok(own.includes(`(1 A\\x1b]0;t\\x07B\\u009b2JC\\rD)`), "the live status's progress");
  assert.ok(own.includes(`│ ${shown}\n`) && own.includes("│ \tindented Ä\n"));
  assert.ok(own.includes(`${shown}\n`) && own.includes(`! x: ${shown}`));
});

Deno.test("TextView's closing line counts denied write-tool calls (issue 32: a denial is no silent success)", async () => {
  const v = view();
  await v.emit({
    type: "approval",
    run_id: "r1",
    approval_id: "a1",
    summary: "Allow client tool note",
    decision: "deny",
    decided_by: "flag",
    recorded: true,
  });
  await v.emit({
    type: "turn.finished",
    session_id: "s1",
    run_id: "r1",
    outcome: "completed",
    persistence: "durable",
    revision: null,
    error_code: null,
    cancelled_by: null,
    exit_code: 0,
  }, 1000);
  await v.textView.close();
  assert.match(v.out(), /✔ completed · 0 calls, 1 denied · 1\.0 s · exit 0\n$/);
});

Deno.test("the catalog's tools (tool_search, tool_call, tool_call_write) are client tools, not activity lines", async () => {
  const v = view();
  for (const [i, name] of ["tool_search", "tool_call", "tool_call_write", "shell"].entries()) {
    await v.emit({
      type: "activity",
      run_id: "r1",
      activity_id: `a${i}`,
      kind: "tool",
      state: "completed",
      name,
      summary: `ran ${name}`,
    });
  }
  assert.doesNotMatch(v.out(), /ran tool_/);
  assert.match(v.out(), /ran shell/);
});
