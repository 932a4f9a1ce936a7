import assert from "node:assert/strict";
import { shardOf } from "../../src/batch/shard.ts";
import { renderHtml } from "../../src/report/html.ts";
import { callsOf, loadBatches } from "../../src/report/load.ts";
import { renderMarkdown } from "../../src/report/markdown.ts";
import { computeStats, histogram, percentile } from "../../src/report/stats.ts";
import { runCli } from "../batch/_batch.ts";
import { recordsOf, sampleItems, writeFolder } from "./_fixture.ts";

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "magi-report-test-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("percentile() is nearest-rank; histogram() counts every value once", () => {
  assert.equal(percentile([], 50), 0);
  assert.equal(percentile([5], 95), 5);
  const values = Array.from({ length: 100 }, (_, i) => 100 - i); // 100..1, unsorted
  assert.equal(percentile(values, 50), 50);
  assert.equal(percentile(values, 95), 95);
  const buckets = histogram([0, 1, 5, 99, 100], 4);
  assert.equal(buckets.reduce((n, b) => n + b.count, 0), 5);
  assert.equal(buckets[0]!.fromMs, 0);
  assert.ok(buckets.at(-1)!.toMs > 100);
});

Deno.test("callsOf() places tool calls on the item's time axis", () => {
  const calls = callsOf(recordsOf({
    id: "x",
    durationMs: 500,
    calls: [["b", 200, 50, "error"], ["a", 10, 100, "success"]],
  }));
  assert.deepEqual(calls, [
    { name: "a", startMs: 10, durationMs: 100, outcome: "success", errorCode: null },
    { name: "b", startMs: 200, durationMs: 50, outcome: "error", errorCode: "tool_failed" },
  ]);
});

Deno.test("report merges shard folders into the same numbers as one folder", async () => {
  await withDir(async (dir) => {
    const items = sampleItems(30);
    await writeFolder(`${dir}/all`, items);
    for (let k = 1; k <= 3; k++) {
      await writeFolder(`${dir}/shard-${k}`, items.filter((i) => shardOf(i.id, 3) === k));
    }
    const whole = await loadBatches([`${dir}/all`]);
    const merged = await loadBatches([1, 2, 3].map((k) => `${dir}/shard-${k}`));
    assert.equal(merged.items.length, 30);
    assert.deepEqual(merged.duplicates, []);
    const strip = (b: typeof whole) =>
      b.items.map(({ dir: _dir, started_at: _s, ...rest }) => rest);
    assert.deepEqual(strip(merged), strip(whole));
    const a = computeStats(whole);
    const b = computeStats(merged);
    assert.deepEqual(b.outcomes, a.outcomes);
    assert.deepEqual(b.tools, a.tools);
    assert.equal(b.p95Ms, a.p95Ms);
    assert.deepEqual(b.failed.map((i) => i.id), a.failed.map((i) => i.id));
    assert.deepEqual(b.outcomes, {
      completed: 28,
      "completed, exit ≠ 0": 0,
      failed: 1,
      cancelled: 0,
      error: 1,
    });
    // A folder given twice: every id is a duplicate, counted once.
    const twice = await loadBatches([`${dir}/all`, `${dir}/shard-1`]);
    assert.equal(twice.items.length, 30);
    assert.ok(twice.duplicates.length > 0);
  });
});

Deno.test("renderMarkdown(): totals, slowest, tools with error rate and p50/p95, failed with error", async () => {
  await withDir(async (dir) => {
    await writeFolder(dir, sampleItems(20));
    const batch = await loadBatches([dir]);
    const stats = computeStats(batch);
    const md = renderMarkdown(batch, stats);
    assert.match(md, /^## Batch report\n/);
    assert.match(md, /20 items from 1 folder: \*\*18 succeeded\*\*, \*\*2 failed\*\* /);
    assert.match(md, /\| completed \| 18 \| 90\.0% \|/);
    const fetch = stats.tools.find((t) => t.name === "fetch_page")!;
    assert.equal(fetch.calls, 20);
    assert.equal(fetch.errors, 4); // i % 5 === 0
    assert.match(md, /\| `fetch_page` \| 20 \| 4 \| 20\.0% \| 0 \|/);
    assert.match(md, /\| `case-007` \| failed \| 1 \| execution_failed \|/);
    // Pipes and tags in an error cannot break the table.
    assert.match(
      md,
      /\| `case-011` \| error \| 4 \| backend_exited: Backend exited with \\\| pipe &lt;b> \|/,
    );
    const slowest = md.split("### Slowest items")[1]!.split("###")[0]!;
    assert.equal(slowest.match(/^\| `case-/gm)?.length, 10);
  });
});

Deno.test("renderHtml() is self-contained: a CSP forbidding network, no external URL, escaped data", async () => {
  await withDir(async (dir) => {
    const items = sampleItems(12);
    await writeFolder(dir, items);
    const batch = await loadBatches([dir]);
    const html = renderHtml(batch, computeStats(batch), { item: "case-005" });
    assert.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src 'none';/);
    // The only URL is the SVG namespace name, which is never fetched.
    assert.doesNotMatch(html.replaceAll('"http://www.w3.org/2000/svg"', ""), /https?:\/\//);
    assert.doesNotMatch(html, /\ssrc=/);
    assert.doesNotMatch(html, /@import|url\(/);
    assert.equal(html.match(/<script/g)?.length, 2);
    assert.match(html, /"initial":"case-005"/);
    assert.ok(html.includes("Backend exited with | pipe &lt;b&gt;"));
    assert.throws(() => renderHtml(batch, computeStats(batch), { item: "nope" }), /--item.*nope/);
  });
});

Deno.test("report CLI: Markdown to stdout by default; a folder without index exits 2 naming it", async () => {
  await withDir(async (dir) => {
    await writeFolder(`${dir}/a`, sampleItems(5));
    const ok = await runCli(["report", `${dir}/a`]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /^## Batch report/);
    const html = `${dir}/r.html`;
    const both = await runCli(["report", `${dir}/a`, "--html", html, "--markdown", `${dir}/r.md`]);
    assert.equal(both.code, 0, both.stderr);
    assert.equal(both.stdout, "");
    assert.match(await Deno.readTextFile(`${dir}/r.md`), /5 items from 1 folder/);
    assert.match(await Deno.readTextFile(html), /<!doctype html>/);
    await Deno.mkdir(`${dir}/empty`);
    const bad = await runCli(["report", `${dir}/a`, `${dir}/empty`]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /no index\.jsonl.*empty/);
    const item = await runCli(["report", `${dir}/a`, "--html", html, "--item", "zzz"]);
    assert.equal(item.code, 2);
    assert.match(item.stderr, /--item.*zzz/);
  });
});
