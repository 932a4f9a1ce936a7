import assert from "node:assert/strict";
import {
  parseCpuTimeMs,
  parseMemoryStatus,
  readCpuTimeMs,
  readMemoryStatus,
} from "../../bench/harness/proc_status.ts";

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

Deno.test("parseCpuTimeMs() adds utime and stime after a command name with spaces", () => {
  const stat = "42 (deno (x) y) S 1 2 3 4 5 6 7 8 9 10 150 50 0 0 20 0";
  assert.equal(parseCpuTimeMs(stat), 2000);
  assert.equal(parseCpuTimeMs(stat, 1000), 200);
});

Deno.test("parseCpuTimeMs() rejects a stat without CPU fields", () => {
  assert.throws(() => parseCpuTimeMs("42 (deno) S 1 2"), TypeError);
});

Deno.test("readCpuTimeMs() of this process grows with work", () => {
  const before = readCpuTimeMs(Deno.pid);
  const end = performance.now() + 50;
  while (performance.now() < end) Math.sqrt(Math.random());
  assert.ok(readCpuTimeMs(Deno.pid) >= before);
  assert.ok(before >= 0);
});
