import assert from "node:assert/strict";
import { Progress, progressLine } from "../../src/batch/progress.ts";

Deno.test("progressLine() shows the bar, done/failed/running, rate and ETA", () => {
  const line = progressLine({ total: 200, done: 90, failed: 10, running: 4 }, 50_000);
  assert.match(
    line,
    /^\[#{12}-{12}\] 100\/200 {2}done 90 {2}failed 10 {2}running 4 {2}2\.0 items\/s {2}ETA 50s$/,
  );
  assert.match(
    progressLine({ total: 10, done: 0, failed: 0, running: 2 }, 0),
    /0\.0 items\/s {2}ETA \?/,
  );
  assert.match(progressLine({ total: 4000, done: 1, failed: 0, running: 1 }, 10_000), /ETA 11h06m/);
  assert.match(progressLine({ total: 0, done: 0, failed: 0, running: 0 }, 5), /^\[#{24}\] 0\/0/);
});

Deno.test("Progress redraws in place and ends with a newline", () => {
  const out: string[] = [];
  const progress = new Progress(
    (t) => out.push(t),
    () => ({ total: 2, done: 1, failed: 0, running: 1 }),
  );
  progress.draw();
  progress.end();
  assert.ok(out.length >= 3);
  for (const text of out.slice(0, -1)) {
    assert.ok(text.startsWith("\r[") && text.endsWith("\x1b[K"), JSON.stringify(text));
  }
  assert.equal(out.at(-1), "\n");
});
