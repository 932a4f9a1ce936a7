import assert from "node:assert/strict";
import {
  acquireLease,
  isStale,
  LeaseTable,
} from "../../../src/reference_backend/sessions/leases.ts";

const table = new LeaseTable();
Deno.test("acquireLease() is exclusive until released", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/s.lock`;
    const first = await acquireLease(path, "i1", table);
    assert.ok(first.ok);
    assert.deepEqual(await acquireLease(path, "i2", table), { ok: false, code: "session_busy" });
    await first.lease.release();
    const again = await acquireLease(path, "i2", table);
    assert.ok(again.ok);
    await again.lease.release();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("acquireLease() recovers the lease of a dead process", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/s.lock`;
    // A pid far above the default pid_max is never live.
    await Deno.writeTextFile(path, JSON.stringify({ pid: 2 ** 30, instance_id: "old" }));
    assert.equal(await isStale(path), Deno.build.os === "linux");
    const acquired = await acquireLease(path, "new", table);
    assert.equal(acquired.ok, Deno.build.os === "linux");
    if (acquired.ok) await acquired.lease.release();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("acquireLease() keeps a live or unreadable lease", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/live.lock`, JSON.stringify({ pid: 1, instance_id: "x" }));
    assert.deepEqual(await acquireLease(`${dir}/live.lock`, "i", table), {
      ok: false,
      code: "session_busy",
    });
    await Deno.writeTextFile(`${dir}/junk.lock`, "not json");
    assert.deepEqual(await acquireLease(`${dir}/junk.lock`, "i", table), {
      ok: false,
      code: "session_busy",
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
