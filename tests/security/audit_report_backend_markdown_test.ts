/**
 * Audit (issue 31 item 4, follow-up): `report`'s Markdown shows the `backend.kind` of an item's
 * `host.ready` record (from `items/ID.ndjson`, which the index-line validator never checks) raw:
 * a hostile `out/` folder puts links, images (`![x](https://attacker/…)`, a tracking/exfil pixel
 * in a GitHub step summary) and raw HTML into the report. Fails on 998e5da.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { cli, tempDir } from "./_scopes.ts";

Deno.test("audit: report --markdown escapes the backend kind read from an item file", async () => {
  const tmp = await tempDir("magi-tools-audit-report-");
  const dir = tmp.path;
  try {
    const out = join(dir, "out");
    await Deno.mkdir(join(out, "items"), { recursive: true });
    await Deno.writeTextFile(
      join(out, "index.jsonl"),
      JSON.stringify({
        id: "a",
        outcome: "failed",
        exit_code: 1,
        started_at: "2026-12-01T10:00:00.000Z",
        duration_ms: 5,
        tool_calls: { success: 0, error: 0, cancelled: 0 },
        last_message: null,
        session_id: null,
        error: "x",
      }) + "\n",
    );
    const kind =
      'x\n\n![pixel](https://attacker.example/p.png)\n\n<img src="https://attacker.example/i">';
    await Deno.writeTextFile(
      join(out, "items", "a.ndjson"),
      JSON.stringify({
        type: "host.ready",
        ts: "2026-12-01T10:00:00.000Z",
        v: 1,
        backend: { kind },
      }) +
        "\n",
    );
    const run = await cli(["report", "out"], { cwd: dir });
    assert.equal(run.code, 0, run.stderr);
    assert.doesNotMatch(run.stdout, /!\[pixel\]\(https:/, "a Markdown image from the item file");
    assert.doesNotMatch(run.stdout, /<img /, "raw HTML from the item file");
    assert.doesNotMatch(run.stdout, /^!\[/m, "a line of the report starts with item-file markup");
  } finally {
    await tmp.remove();
  }
});
