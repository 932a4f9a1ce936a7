import assert from "node:assert/strict";
import { progressRecord, SourceWarnings } from "../../src/cli/sources.ts";
import { SummaryWriter } from "../../src/summary/writer.ts";

function writer() {
  const lines: string[] = [];
  const decoder = new TextDecoder();
  const summary = new SummaryWriter((bytes) => {
    lines.push(...decoder.decode(bytes).split("\n").filter((line) => line !== ""));
    return Promise.resolve();
  });
  return { summary, lines };
}

Deno.test("SourceWarnings holds warnings until host.ready, then writes host.warning records", async () => {
  const { summary, lines } = writer();
  const warnings = new SourceWarnings();
  warnings.add({ code: "source_unavailable", message: "MCP server a failed", source: "mcp:a" });
  assert.deepEqual(lines, []);
  warnings.attach(summary);
  warnings.add({ code: "source_exited", message: "MCP server b exited", source: "mcp:b" });
  await summary.flush();
  const records = lines.map((line) => JSON.parse(line));
  assert.deepEqual(records.map((r) => [r.type, r.code, r.source]), [
    ["host.warning", "source_unavailable", "mcp:a"],
    ["host.warning", "source_exited", "mcp:b"],
  ]);
});

Deno.test("SourceWarnings writes no record after detach()", async () => {
  const { summary, lines } = writer();
  const warnings = new SourceWarnings();
  warnings.attach(summary);
  warnings.detach();
  warnings.add({ code: "source_exited", message: "late", source: "mcp:b" });
  await summary.flush();
  assert.deepEqual(lines, []);
});

Deno.test("progressRecord() leaves out absent total and message", () => {
  assert.deepEqual(progressRecord("r", "c", "t", { progress: 1 }), {
    type: "tool.progress",
    run_id: "r",
    call_id: "c",
    name: "t",
    progress: 1,
  });
  assert.deepEqual(progressRecord("r", "c", "t", { progress: 1, total: 2, message: "m" }), {
    type: "tool.progress",
    run_id: "r",
    call_id: "c",
    name: "t",
    progress: 1,
    total: 2,
    message: "m",
  });
});
