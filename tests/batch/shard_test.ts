import assert from "node:assert/strict";
import { inShard, parseShard, shardOf, stableHash } from "../../src/batch/shard.ts";

Deno.test("stableHash() is 32-bit FNV-1a over UTF-8 (fixed vectors)", () => {
  assert.equal(stableHash(""), 0x811c9dc5);
  assert.equal(stableHash("a"), 0xe40c292c);
  assert.equal(stableHash("foobar"), 0xbf9cf968);
  // UTF-8, not UTF-16 code units: "é" is the two bytes c3 a9.
  assert.equal(stableHash("é"), stableHash("\u00e9"));
  assert.notEqual(stableHash("é"), stableHash("e\u0301"));
});

Deno.test("--shard K/N puts every id in exactly one shard, for several N", () => {
  const ids = Array.from({ length: 1000 }, (_, i) => `ticket-${i}`);
  for (const count of [1, 2, 3, 4, 7, 10, 16]) {
    const seen = new Map<string, number>();
    for (let index = 1; index <= count; index++) {
      for (const id of ids) {
        if (!inShard(id, { index, count })) continue;
        assert.equal(seen.has(id), false, `${id} in two shards of ${count}`);
        seen.set(id, index);
      }
    }
    assert.equal(seen.size, ids.length, `N=${count}: every id in one shard`);
    // Shares are balanced enough to be useful (FNV-1a over distinct ids).
    for (let index = 1; index <= count; index++) {
      const share = [...seen.values()].filter((s) => s === index).length;
      assert.ok(share > (ids.length / count) * 0.6, `N=${count} K=${index}: ${share} items`);
    }
  }
});

Deno.test("shardOf() does not depend on the order or the rest of the input", () => {
  assert.equal(shardOf("x-1", 5), shardOf("x-1", 5));
  assert.equal(shardOf("x-1", 5), (stableHash("x-1") % 5) + 1);
});

Deno.test("parseShard() accepts K/N with 1 <= K <= N and names the value otherwise", () => {
  assert.deepEqual(parseShard("1/1"), { index: 1, count: 1 });
  assert.deepEqual(parseShard("3/8"), { index: 3, count: 8 });
  for (const bad of ["0/3", "4/3", "1/0", "a/b", "1/", "/2", "1/2/3", "-1/2", "1.5/2", ""]) {
    assert.throws(
      () => parseShard(bad),
      (e: Error) => e instanceof RangeError && e.message.includes(bad),
    );
  }
});
