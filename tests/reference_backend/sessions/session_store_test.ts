import assert from "node:assert/strict";
import { sha256Hex } from "../../../src/protocol/canonical.ts";
import {
  readStoredSession,
  SessionFile,
} from "../../../src/reference_backend/sessions/session_store.ts";

async function fileSize(path: string): Promise<number> {
  return (await Deno.stat(path)).size;
}

async function withDir(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.realPath(await Deno.makeTempDir());
  try {
    await body(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("SessionFile revisions carry a per-file nonce", () => {
  const a = new SessionFile("/x/s.jsonl", { sessionId: "s", cwd: "/x", lines: 1, bytes: 9 });
  const b = new SessionFile("/x/s.jsonl", { sessionId: "s", cwd: "/x", lines: 1, bytes: 9 });
  assert.notEqual(a.revision, b.revision, "same size, different attachments");
  assert.equal(a.digest, sha256Hex(""), "no text given: the empty content");
});

Deno.test("SessionFile appends timestamped records that read back valid", async () => {
  await withDir(async (dir) => {
    const file = new SessionFile(`${dir}/s.jsonl`, { sessionId: "s", cwd: dir });
    assert.match(file.revision, /^r0-0\.[0-9a-f]{12}$/);
    const revision = await file.append("user", { text: "hi" });
    assert.equal(revision, `r1-${await fileSize(`${dir}/s.jsonl`)}.${file.nonce}`);
    const read = await readStoredSession(`${dir}/s.jsonl`, { sessionId: "s", cwd: dir });
    assert.ok(read.ok);
    assert.equal(file.digest, sha256Hex(read.stored.text), "digest follows the appends");
    assert.deepEqual(read.stored.notices, []);
    const record = JSON.parse(await Deno.readTextFile(`${dir}/s.jsonl`));
    assert.match(record.timestamp, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    assert.equal(record.cwd, dir);
  });
});

const line = (fields: Record<string, unknown>) =>
  JSON.stringify({
    type: "user",
    session_id: "s",
    timestamp: "2026-01-01T00:00:00Z",
    text: "hi",
    ...fields,
  }) + "\n";

const CASES: [string, (dir: string) => string | null, string][] = [
  ["a missing file", () => null, "session_missing"],
  ["a non-JSON line", () => "nope\n", "session_invalid"],
  ["an unterminated last line", () => line({}).trimEnd(), "session_invalid"],
  ["another session's record", () => line({ session_id: "t" }), "session_invalid"],
  ["an unknown record type", () => line({ type: "x" }), "session_invalid"],
  ["a user record without text", () => line({ text: undefined }), "session_invalid"],
  ["a user record with non-string text", () => line({ text: ["hi"] }), "session_invalid"],
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

Deno.test("readStoredSession() stops when its signal aborts, also while validating", async () => {
  await withDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/s.jsonl`, line({}).repeat(10_000));
    const ids = { sessionId: "s", cwd: dir };
    const aborted = AbortSignal.abort(new Error("cancelled before"));
    await assert.rejects(readStoredSession(`${dir}/s.jsonl`, ids, { signal: aborted }), /before/);
    // Aborted once validation runs: it yields every YIELD_LINES lines and stops there.
    const controller = new AbortController();
    const reading = readStoredSession(`${dir}/s.jsonl`, ids, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("cancelled during")), 0);
    await assert.rejects(reading, /during/);
    const read = await readStoredSession(`${dir}/s.jsonl`, ids, {
      signal: new AbortController().signal,
    });
    assert.ok(read.ok);
    assert.equal(read.stored.lines, 10_000);
  });
});
