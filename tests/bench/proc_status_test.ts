import assert from "node:assert/strict";
import { parseMemoryStatus, readMemoryStatus } from "../../bench/harness/proc_status.ts";

Deno.test("parseMemoryStatus() reads VmRSS and VmHWM in KiB", () => {
  const text = "Name:\tdeno\nVmPeak:\t 9999 kB\nVmHWM:\t   81234 kB\nVmRSS:\t   80000 kB\n";
  assert.deepEqual(parseMemoryStatus(text), { rssKb: 80000, hwmKb: 81234 });
});

Deno.test("parseMemoryStatus() rejects a status without memory lines", () => {
  assert.throws(() => parseMemoryStatus("Name:\tdeno\n"), TypeError);
});

Deno.test("readMemoryStatus() of this process reports a peak at least its RSS", () => {
  const status = readMemoryStatus(Deno.pid);
  assert.ok(status.rssKb > 0);
  assert.ok(status.hwmKb >= status.rssKb);
});
