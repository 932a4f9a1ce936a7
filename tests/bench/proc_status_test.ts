import assert from "node:assert/strict";
import {
  CpuMeter,
  parseCpuSplitMs,
  parseCpuTimeMs,
  parseMemoryStatus,
  parseSchedstatMs,
  readCpuTimeMs,
  readMemoryStatus,
  readSchedstatMs,
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

Deno.test("parseCpuSplitMs() gives utime and stime apart, summing to parseCpuTimeMs()", () => {
  const stat = "42 (deno (x) y) S 1 2 3 4 5 6 7 8 9 10 150 50 0 0 20 0";
  assert.deepEqual(parseCpuSplitMs(stat), { user: 1500, system: 500 });
  assert.deepEqual(parseCpuSplitMs(stat, 1000), { user: 150, system: 50 });
  assert.throws(() => parseCpuSplitMs("42 (deno) S 1 2"), TypeError);
});

Deno.test("readCpuTimeMs() of this process grows with work", () => {
  const before = readCpuTimeMs(Deno.pid);
  const end = performance.now() + 50;
  while (performance.now() < end) Math.sqrt(Math.random());
  assert.ok(readCpuTimeMs(Deno.pid) >= before);
  assert.ok(before >= 0);
});

Deno.test("CpuMeter counts each process's CPU over the timed part only, per call", () => {
  const meter = new CpuMeter({ self: () => Deno.pid, unknown: () => null });
  // Busy for `ms` of this process's own CPU time (wall time would depend on the machine's load).
  const busy = (ms: number) => {
    const end = readCpuTimeMs(Deno.pid) + ms;
    while (readCpuTimeMs(Deno.pid) < end) Math.sqrt(Math.random());
  };
  busy(60); // before the timed part: not counted
  meter.onTimed("start");
  busy(100);
  meter.onTimed("end");
  busy(60); // after it: not counted
  const perCall = meter.perCall(10);
  assert.deepEqual(Object.keys(perCall), ["self"], "a process without a pid is left out");
  // 100 ms of CPU over 10 calls is 10,000 µs a call (10 ms clock ticks: up to one more tick);
  // counting the 60 ms before or after would give 16,000 or more.
  assert.ok(perCall.self! >= 10_000 && perCall.self! <= 12_000, `${perCall.self} µs`);
  assert.deepEqual(meter.perCall(0), {});
  // The system part is a part: a busy loop spends its time in user space.
  const system = meter.systemPerCall(10);
  assert.deepEqual(Object.keys(system), ["self"]);
  assert.ok(system.self! >= 0 && system.self! <= perCall.self!, `${system.self} µs`);
  assert.deepEqual(meter.systemPerCall(0), {});
});

Deno.test("parseSchedstatMs() reads the run time in ns as ms; readSchedstatMs() never decreases", () => {
  assert.equal(parseSchedstatMs("173600000 1829726 1\n"), 173.6);
  assert.throws(() => parseSchedstatMs("x 1 2"), TypeError);
  // The main thread's time (deno test may run this file's code on another thread).
  const before = readSchedstatMs(Deno.pid);
  const end = performance.now() + 20;
  while (performance.now() < end) Math.sqrt(Math.random());
  assert.ok(before > 0);
  assert.ok(readSchedstatMs(Deno.pid) >= before);
});
