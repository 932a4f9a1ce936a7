import assert from "node:assert/strict";
import { readStoredSession, SessionFile } from "../../src/reference_backend/session_store.ts";

async function withDir(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.realPath(await Deno.makeTempDir());
  try {
    await body(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("SessionFile appends timestamped records that read back valid", async () => {
  await withDir(async (dir) => {
    const file = new SessionFile(`${dir}/s.jsonl`, { sessionId: "s", cwd: dir });
    assert.equal(file.revision, "r0-0");
    const revision = await file.append("user", { text: "hi" });
    assert.match(revision, /^r1-\d+$/);
    const read = await readStoredSession(`${dir}/s.jsonl`, { sessionId: "s", cwd: dir });
    assert.ok(read.ok);
    assert.deepEqual(read.stored.notices, []);
    const record = JSON.parse(await Deno.readTextFile(`${dir}/s.jsonl`));
    assert.match(record.timestamp, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    assert.equal(record.cwd, dir);
  });
});

const line = (fields: Record<string, unknown>) =>
  JSON.stringify({ type: "user", session_id: "s", timestamp: "2026-01-01T00:00:00Z", ...fields }) +
  "\n";

const CASES: [string, (dir: string) => string | null, string][] = [
  ["a missing file", () => null, "session_missing"],
  ["a non-JSON line", () => "nope\n", "session_invalid"],
  ["an unterminated last line", () => line({}).trimEnd(), "session_invalid"],
  ["another session's record", () => line({ session_id: "t" }), "session_invalid"],
  ["an unknown record type", () => line({ type: "x" }), "session_invalid"],
  ["a relative cwd", () => line({ cwd: "rel" }), "cwd_mismatch"],
  ["another cwd", () => line({ cwd: "/" }), "cwd_mismatch"],
  ["a vanished cwd", (dir) => line({ cwd: `${dir}/gone` }), "cwd_mismatch"],
];
for (const [name, content, code] of CASES) {
  Deno.test(`readStoredSession() answers ${code} for ${name}`, async () => {
    await withDir(async (dir) => {
      const text = content(dir);
      if (text !== null) await Deno.writeTextFile(`${dir}/s.jsonl`, text);
      const read = await readStoredSession(`${dir}/s.jsonl`, { sessionId: "s", cwd: dir });
      assert.deepEqual(read, { ok: false, code });
    });
  });
}

Deno.test("readStoredSession() opens an empty or cwd-less file with cwd_unverified", async () => {
  await withDir(async (dir) => {
    for (const text of ["", line({})]) {
      await Deno.writeTextFile(`${dir}/s.jsonl`, text);
      const read = await readStoredSession(`${dir}/s.jsonl`, { sessionId: "s", cwd: dir });
      assert.ok(read.ok);
      assert.deepEqual(read.stored.notices, ["cwd_unverified"]);
    }
  });
});
