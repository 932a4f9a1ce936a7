import assert from "node:assert/strict";
import {
  formatNumber,
  megabytesPerSecond,
  percentChange,
  percentile,
  perSecond,
  summarize,
  verdict,
} from "../../bench/harness/stats.ts";

const HUNDRED = Array.from({ length: 100 }, (_, i) => 100 - i); // 100..1, unsorted

Deno.test("percentile() uses the nearest rank", () => {
  const table: [number[], number, number][] = [
    [[5], 50, 5],
    [[5], 99, 5],
    [[3, 1, 2, 4], 50, 2],
    [[3, 1, 2, 4], 75, 3],
    [[3, 1, 2, 4], 99, 4],
    [HUNDRED, 50, 50],
    [HUNDRED, 99, 99],
    [HUNDRED, 100, 100],
  ];
  for (const [samples, p, expected] of table) {
    assert.equal(percentile(samples, p), expected, `p${p} of ${samples.length} samples`);
  }
});

Deno.test("percentile() leaves its input unsorted and rejects bad arguments", () => {
  const samples = [3, 1, 2];
  percentile(samples, 50);
  assert.deepEqual(samples, [3, 1, 2]);
  assert.throws(() => percentile([], 50), RangeError);
  assert.throws(() => percentile([1], 0), RangeError);
  assert.throws(() => percentile([1], 101), RangeError);
});

Deno.test("summarize() computes p50, p99, mean, min and max", () => {
  const s = summarize(HUNDRED);
  assert.deepEqual(s, { count: 100, p50: 50, p99: 99, mean: 50.5, min: 1, max: 100 });
  assert.throws(() => summarize([]), RangeError);
});

Deno.test("summarize() sorts numerically, not as strings", () => {
  assert.equal(summarize([10, 9, 100]).p50, 10);
});

Deno.test("perSecond() and megabytesPerSecond() scale by elapsed time", () => {
  assert.equal(perSecond(500, 250), 2000);
  assert.equal(megabytesPerSecond(10, 1e6, 1000), 10);
  assert.throws(() => perSecond(1, 0), RangeError);
});

Deno.test("percentChange() is relative to the start", () => {
  assert.equal(percentChange(100, 105), 5);
  assert.equal(percentChange(200, 190), -5);
  assert.throws(() => percentChange(0, 1), RangeError);
});

Deno.test("verdict() checks at-least and at-most targets and fails non-finite ratios", () => {
  assert.equal(verdict(1.5, { atLeast: 1.5 }).pass, true);
  assert.equal(verdict(1.49, { atLeast: 1.5 }).pass, false);
  assert.equal(verdict(0.6, { atMost: 0.6 }).pass, true);
  assert.equal(verdict(0.61, { atMost: 0.6 }).pass, false);
  assert.equal(verdict(Number.NaN, { atMost: 0.6 }).pass, false);
  assert.equal(verdict(Infinity, { atLeast: 1 }).pass, false);
});

Deno.test("formatNumber() keeps three significant digits and groups thousands", () => {
  const table: [number | undefined, string][] = [
    [12345.6, "12,346"],
    [999.4, "999"],
    [12.345, "12.3"],
    [1.2345, "1.23"],
    [0.012345, "0.0123"],
    [undefined, "n/a"],
    [Number.NaN, "n/a"],
  ];
  for (const [value, expected] of table) assert.equal(formatNumber(value), expected);
});
