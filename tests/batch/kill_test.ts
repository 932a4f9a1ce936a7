import assert from "node:assert/strict";
import {
  assertWholeItem,
  FIXTURE_TOOLS,
  indexLines,
  itemFiles,
  runCli,
  spawnCli,
  summaryOf,
  writeInput,
} from "./_batch.ts";

/** Deterministic random numbers (mulberry32) so a failing seed can be replayed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ROUNDS = 5;
const ITEMS = 16;

Deno.test("batch: SIGKILL at random moments loses no completed item and leaves no half item that looks complete", async () => {
  const seed = Number(Deno.env.get("BATCH_KILL_SEED") ?? Date.now() % 1_000_000);
  const next = random(seed);
  const dir = await Deno.makeTempDir({ prefix: "magi-batch-kill-" });
  const home = await Deno.makeTempDir({ prefix: "magi-batch-home-" });
  try {
    const ids = Array.from({ length: ITEMS }, (_, i) => `item-${String(i).padStart(2, "0")}`);
    const input = await writeInput(
      dir,
      ids.map((id) => ({
        id,
        prompt: `Use sleepy {"ms":${50 + Math.floor(next() * 250)}} and sleepy {"ms":10}`,
      })),
    );
    const out = `${dir}/out`;
    const args = ["batch", input, "--out", out, "--jobs", "3", "--tools", FIXTURE_TOOLS];
    const kept = new Map<string, string>();
    const checkState = async (when: string) => {
      const files = itemFiles(out);
      for (const id of files) await assertWholeItem(out, id);
      // Every whole index line names a visible, whole item (the index is appended after).
      for (const entry of await indexLines(out)) {
        assert.ok(files.includes(String(entry.id)), `${when}: index names missing ${entry.id}`);
      }
      // No item once complete is lost, rewritten or run again.
      for (const [id, text] of kept) {
        assert.equal(
          await Deno.readTextFile(`${out}/items/${id}.ndjson`),
          text,
          `${when}: ${id} changed (seed ${seed})`,
        );
      }
      for (const id of files) {
        if (!kept.has(id)) kept.set(id, await Deno.readTextFile(`${out}/items/${id}.ndjson`));
      }
    };
    for (let round = 1; round <= ROUNDS; round++) {
      const child = spawnCli(args, { home });
      const drained = Promise.all([
        new Response(child.stdout).arrayBuffer(),
        new Response(child.stderr).arrayBuffer(),
      ]);
      // Round 1 kills during the start; later rounds once 0-3 more items are visible, then
      // 0-400 ms later, so the kills land between, before and after commits.
      const started = performance.now();
      if (round === 1) {
        await new Promise((r) => setTimeout(r, Math.floor(next() * 1_500)));
      } else {
        const target = Math.min(ITEMS, kept.size + Math.floor(next() * 4));
        for (let i = 0; i < 600 && itemFiles(out).length < target; i++) {
          await new Promise((r) => setTimeout(r, 25));
        }
        await new Promise((r) => setTimeout(r, Math.floor(next() * 400)));
      }
      const delay = Math.round(performance.now() - started);
      try {
        child.kill("SIGKILL");
      } catch { /* Already finished. */ }
      await child.status;
      await drained;
      await checkState(`round ${round} (killed after ${delay} ms, seed ${seed})`);
      console.log(`round ${round}: killed after ${delay} ms, ${kept.size}/${ITEMS} items complete`);
    }
    const before = kept.size;
    const last = await runCli(args, { home });
    assert.equal(last.code, 0, last.stderr);
    const summary = summaryOf(last);
    assert.equal(summary.completed, ITEMS - before, `seed ${seed}`);
    await checkState(`final run (seed ${seed})`);
    assert.deepEqual(itemFiles(out), ids);
    // One index line per item: none was run twice, none lost its line.
    const index = await indexLines(out);
    assert.deepEqual(index.map((e) => e.id).sort(), ids, `seed ${seed}`);
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    await Deno.remove(home, { recursive: true }).catch(() => {});
  }
});
