import assert from "node:assert/strict";
import { entryFromRecords } from "../../src/batch/index_entry.ts";
import { BatchStore, readIndex } from "../../src/batch/store.ts";

const ITEM = [
  '{"type":"session","ts":"2026-01-01T00:00:00.000Z","v":1,"session_id":"s1","durable":true,"resumed":false}',
  '{"type":"tool.result","ts":"2026-01-01T00:00:00.500Z","v":1,"outcome":"error","name":"t"}',
  '{"type":"message","ts":"2026-01-01T00:00:00.900Z","v":1,"text":"done"}',
  '{"type":"turn.finished","ts":"2026-01-01T00:00:01.000Z","v":1,"outcome":"completed","exit_code":0,"error_code":null}',
].join("\n") + "\n";

Deno.test("BatchStore.commit() renames the item file into place, then appends the index line", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const store = await BatchStore.open(dir);
    const entry = entryFromRecords("a", ITEM.trim().split("\n").map((l) => JSON.parse(l)));
    await store.commit("a", new TextEncoder().encode(ITEM), entry);
    assert.equal(await Deno.readTextFile(`${dir}/items/a.ndjson`), ITEM);
    const index = await readIndex(dir);
    assert.deepEqual(index.get("a"), entry);
    assert.deepEqual([...Deno.readDirSync(`${dir}/items`)].map((e) => e.name), ["a.ndjson"]);
    assert.equal(entry.last_message, "done");
    assert.equal(entry.session_id, "s1");
    assert.deepEqual(entry.tool_calls, { success: 0, error: 1, cancelled: 0, denied: 0 });
    assert.equal(entry.duration_ms, 1000);
    await store.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("BatchStore.open() repairs a kill: temp files, a partial index line, a missing line", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${dir}/items`);
    // Killed while writing item c (temp file), after renaming b (no index line), while
    // appending a's second line (partial), and an index line whose file is gone (d).
    await Deno.writeTextFile(`${dir}/items/.c.ndjson.tmp`, ITEM.slice(0, 40));
    await Deno.writeTextFile(`${dir}/items/a.ndjson`, ITEM);
    await Deno.writeTextFile(`${dir}/items/b.ndjson`, ITEM);
    const a = entryFromRecords("a", []);
    const d = entryFromRecords("d", []);
    await Deno.writeTextFile(
      `${dir}/index.jsonl`,
      `${JSON.stringify(a)}\n${JSON.stringify(d)}\n{"id":"a","outc`,
    );
    const store = await BatchStore.open(dir);
    assert.deepEqual([...store.entries.keys()].sort(), ["a", "b"]);
    assert.equal(store.entries.get("b")?.outcome, "completed");
    assert.equal(store.entries.get("b")?.exit_code, 0);
    const names = [...Deno.readDirSync(`${dir}/items`)].map((e) => e.name).sort();
    assert.deepEqual(names, ["a.ndjson", "b.ndjson"]);
    const text = await Deno.readTextFile(`${dir}/index.jsonl`);
    assert.ok(text.endsWith("\n"));
    for (const line of text.trim().split("\n")) JSON.parse(line); // Every line whole.
    await store.close();
    const reopened = await BatchStore.open(dir);
    assert.deepEqual([...reopened.entries.keys()].sort(), ["a", "b"]);
    await reopened.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readIndex(): a later line for the same id replaces the earlier one", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const failed = { ...entryFromRecords("a", []), exit_code: 1 };
    const ok = { ...entryFromRecords("a", []), exit_code: 0, outcome: "completed" };
    await Deno.writeTextFile(
      `${dir}/index.jsonl`,
      `${JSON.stringify(failed)}\n${JSON.stringify(ok)}\n`,
    );
    assert.equal((await readIndex(dir)).get("a")?.exit_code, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("entryFromRecords(): a host.error makes the item an error with its exit code", () => {
  const entry = entryFromRecords("x", [
    {
      type: "host.error",
      ts: "2026-01-01T00:00:00.000Z",
      code: "backend_unavailable",
      message: "Cannot start",
      exit_code: 3,
    },
  ]);
  assert.equal(entry.outcome, "error");
  assert.equal(entry.exit_code, 3);
  assert.equal(entry.error, "backend_unavailable: Cannot start");
  assert.equal(entry.session_id, null);
});

Deno.test("BatchStore.open() creates an empty index, so an empty shard is a valid folder", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await (await BatchStore.open(`${dir}/out`)).close();
    assert.equal(await Deno.readTextFile(`${dir}/out/index.jsonl`), "");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
