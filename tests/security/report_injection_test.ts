/**
 * `report` over a hostile batch output folder (issue 31 item 4): the folders may come from
 * elsewhere (CI shard artifacts, a committed `out/`), so every `index.jsonl` line is checked
 * (a bad one is exit 2 naming file, line and field), every value shown is escaped in the HTML
 * and the Markdown, and the page runs only its own script and style (a CSP by hash: no inline
 * handler runs even where markup got in), while odd but valid values render as written.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { cli, exists, tempDir } from "./_scopes.ts";
import { browserTestIgnored, withBrowser } from "../_browser.ts";

const T0 = Date.parse("2026-12-01T10:00:00.000Z");
const at = (ms: number) => new Date(T0 + ms).toISOString();

/** A valid index line's fields for item `id` (override any of them). */
function entry(id: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    outcome: "failed",
    exit_code: 1,
    started_at: at(0),
    duration_ms: 1200,
    tool_calls: { success: 0, error: 1, cancelled: 0 },
    last_message: null,
    session_id: null,
    error: "execution_failed",
    ...fields,
  };
}

/** Summary records of an item with one failing call of tool `tool`. */
function records(tool: string): string {
  return [
    { type: "session", ts: at(0), v: 1, session_id: "s", durable: true, resumed: false },
    { type: "tool.call", ts: at(10), v: 1, run_id: "r", call_id: "c1", name: tool },
    {
      type: "tool.result",
      ts: at(400),
      v: 1,
      run_id: "r",
      call_id: "c1",
      name: tool,
      outcome: "error",
      error_code: "tool_failed",
      duration_ms: 390,
    },
    { type: "turn.finished", ts: at(1200), v: 1, outcome: "failed", exit_code: 1 },
  ].map((record) => `${JSON.stringify(record)}\n`).join("");
}

/** An output folder with `lines` as its index (raw text lines) and an item file per id. */
async function folder(
  dir: string,
  lines: readonly string[],
  items: Record<string, string> = {},
): Promise<void> {
  await Deno.mkdir(join(dir, "items"), { recursive: true });
  await Deno.writeTextFile(join(dir, "index.jsonl"), lines.map((line) => `${line}\n`).join(""));
  for (const [id, tool] of Object.entries(items)) {
    await Deno.writeTextFile(join(dir, "items", `${id}.ndjson`), records(tool));
  }
}

const PAYLOAD = `<img src=x onerror="document.body.setAttribute('data-pwned','1')">`;

Deno.test("report refuses an index line with a wrong field (HTML in exit_code, outcome, id, …) with exit 2 naming file:line and field", async () => {
  const dir = await tempDir("magi-tools-sec-report-");
  try {
    const cases: { line: string; field: string }[] = [
      { line: JSON.stringify(entry("a", { exit_code: PAYLOAD })), field: "exit_code" },
      { line: JSON.stringify(entry("a", { exit_code: 1.5 })), field: "exit_code" },
      { line: JSON.stringify(entry("a", { outcome: PAYLOAD })), field: "outcome" },
      { line: JSON.stringify(entry(PAYLOAD)), field: "id" },
      { line: JSON.stringify(entry("../a")), field: "id" },
      { line: JSON.stringify(entry("a", { started_at: PAYLOAD })), field: "started_at" },
      { line: JSON.stringify(entry("a", { duration_ms: "12" })), field: "duration_ms" },
      {
        line: JSON.stringify(entry("a", { tool_calls: { success: PAYLOAD } })),
        field: "tool_calls.success",
      },
      { line: JSON.stringify(entry("a", { error: { html: PAYLOAD } })), field: "error" },
      { line: JSON.stringify(entry("a", { exit_reason: 7 })), field: "exit_reason" },
      { line: `${PAYLOAD}`, field: "not JSON" },
      { line: `[${JSON.stringify(entry("a"))}]`, field: "not a JSON object" },
    ];
    for (const [index, { line, field }] of cases.entries()) {
      const out = join(dir.path, `out-${index}`);
      // A valid line first: the bad one is line 2.
      await folder(
        out,
        [JSON.stringify(entry("ok", { outcome: "completed", exit_code: 0 })), line],
        {
          ok: "fine",
          a: "fine",
        },
      );
      const html = join(dir.path, `report-${index}.html`);
      const md = join(dir.path, `report-${index}.md`);
      const run = await cli(["report", out, "--html", html, "--markdown", md], { cwd: dir.path });
      assert.equal(run.code, 2, `${field}: ${run.stderr}`);
      assert.equal(run.stdout, "");
      assert.ok(run.stderr.includes(`${join(out, "index.jsonl")}:2: ${field}`), run.stderr);
      assert.equal(await exists(html), false, "no HTML report of a refused folder");
      assert.equal(await exists(md), false, "no Markdown report of a refused folder");
    }
  } finally {
    await dir.remove();
  }
});

/** Odd but valid values: unicode, pipes, backticks, newlines, HTML, a 64-character id. */
const LONG_ID = `${"x".repeat(60)}-._9`;
const ODD_ERROR = `bad | pipe \`tick\` <b>bold</b> ${PAYLOAD}\nnext line & &amp; ünïcödé 日本語 🚀`;
const ODD_TOOL = `tool|\`x\`<img src=x onerror=alert(1)>`;

async function oddFolder(out: string): Promise<void> {
  await folder(out, [
    JSON.stringify(entry("ok", { outcome: "completed", exit_code: 0, error: null })),
    JSON.stringify(
      entry(LONG_ID, { error: ODD_ERROR, last_message: PAYLOAD, session_id: PAYLOAD }),
    ),
    JSON.stringify(entry("b", { outcome: "error", exit_code: 4, error: "a|b|c" })),
  ], { ok: "fine", [LONG_ID]: ODD_TOOL, b: "fine" });
}

Deno.test("report shows odd but valid values as written: escaped in the Markdown and the HTML, CSP without 'unsafe-inline'", async () => {
  const dir = await tempDir("magi-tools-sec-report-");
  try {
    const out = join(dir.path, "out");
    await oddFolder(out);
    const html = join(dir.path, "report.html");
    const md = join(dir.path, "report.md");
    const run = await cli(["report", out, "--html", html, "--markdown", md], { cwd: dir.path });
    assert.equal(run.code, 0, run.stderr);

    const markdown = await Deno.readTextFile(md);
    assert.ok(!markdown.includes("<b>"), "raw HTML in the Markdown");
    const failedRows = markdown.split("\n").filter((line) => line.startsWith(`| \`${LONG_ID}\``));
    assert.equal(failedRows.length, 2, "the long id in the slowest and the failed table");
    const failed = failedRows.find((row) => row.includes("pipe"))!;
    // Four cells: exactly five unescaped pipes, the error on one line.
    assert.equal(failed.match(/(?<!\\)\|/g)?.length, 5, failed);
    assert.ok(failed.includes("bad \\| pipe \\`tick\\` &lt;b>bold&lt;/b>"), failed);
    assert.ok(failed.includes("next line &amp; &amp;amp; ünïcödé 日本語 🚀"), failed);
    const toolRow = markdown.split("\n").find((line) => line.includes("onerror=alert"))!;
    assert.ok(toolRow.startsWith("| ``tool\\|`x`<img src=x onerror=alert(1)>`` |"), toolRow);
    assert.equal(toolRow.match(/(?<!\\)\|/g)?.length, 9, toolRow);
    // The only `<img` left is the tool name's, inside its code span (literal text there).
    assert.deepEqual(markdown.split("\n").filter((line) => line.includes("<img")), [toolRow]);

    const page = await Deno.readTextFile(html);
    const csp = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(page)?.[1] ?? "";
    assert.match(csp, /script-src 'sha256-[A-Za-z0-9+/]+=*'/);
    assert.match(csp, /style-src 'sha256-[A-Za-z0-9+/]+=*'/);
    assert.ok(!csp.includes("unsafe-inline"), csp);
    assert.ok(!page.includes("<img"), "raw <img> in the page");
    assert.ok(!page.includes("<b>bold"), "raw <b> of a value in the page");
    assert.ok(page.includes("&lt;b&gt;bold&lt;/b&gt;"));
    assert.ok(page.includes("ünïcödé 日本語 🚀"));
    assert.ok(page.includes(LONG_ID));
  } finally {
    await dir.remove();
  }
});

Deno.test({
  name:
    "report HTML in Chromium: hostile values stay text, the page works, and an <img onerror> spliced in does not run",
  ignore: browserTestIgnored("report HTML CSP"),
  async fn() {
    const dir = await tempDir("magi-tools-sec-report-");
    try {
      const out = join(dir.path, "out");
      await oddFolder(out);
      const html = join(dir.path, "report.html");
      const run = await cli(["report", out, "--html", html], { cwd: dir.path });
      assert.equal(run.code, 0, run.stderr);
      const page = await Deno.readTextFile(html);
      // As if a value had got into the page unescaped: the CSP is the second line of defence.
      const spliced = join(dir.path, "spliced.html");
      await Deno.writeTextFile(spliced, page.replace("<body>", `<body>${PAYLOAD}`));
      await withBrowser(async (browser) => {
        for (const file of [html, spliced]) {
          const tab = await browser.newPage();
          const errors: string[] = [];
          tab.on("pageerror", (error) => errors.push(String(error)));
          tab.on("console", (message) => {
            if (message.type() === "error") errors.push(message.text());
          });
          // Outside the page's CSP (an init script): note which script directives were violated.
          await tab.addInitScript(`window.__violations = [];
            document.addEventListener("securitypolicyviolation", (event) => {
              window.__violations.push(event.effectiveDirective);
            });`);
          await tab.goto(`file://${file}`);
          await tab.waitForSelector("body[data-ready='1']", { timeout: 30_000 });
          const state = await tab.evaluate<
            { text: string; images: number; maxWidth: string; options: number }
          >(`({
            text: document.body.innerText,
            images: document.querySelectorAll("body > table img, td img").length,
            maxWidth: getComputedStyle(document.body).maxWidth,
            options: document.querySelectorAll("#item-select option").length,
          })`);
          // The page's own style and script run under the hash CSP.
          assert.equal(state.maxWidth, "1100px", "the page's style applies");
          assert.equal(state.options, 3, "the page's script filled the item list");
          assert.equal(state.images, 0, "a value became an <img>");
          assert.ok(state.text.includes("<b>bold</b>"), "the error shows as written");
          assert.ok(state.text.includes(LONG_ID));
          if (file === html) {
            assert.deepEqual(errors, [], "no CSP violation on the page as written");
          } else {
            // The spliced image fails to load (img-src), and its handler is refused (script-src).
            await tab.waitForFunction(
              `document.body.getAttribute("data-pwned") === "1" ||
                window.__violations.some((d) => d.startsWith("script-src"))`,
            );
          }
          assert.equal(
            await tab.evaluate<string | null>(`document.body.getAttribute("data-pwned")`),
            null,
            "an inline event handler ran",
          );
          await tab.close();
        }
      });
    } finally {
      await dir.remove();
    }
  },
});

Deno.test("report leaves out only a partial last index line (a killed batch's), naming it on stderr", async () => {
  const dir = await tempDir("magi-tools-sec-report-");
  try {
    const out = join(dir.path, "out");
    await folder(out, [JSON.stringify(entry("a")), JSON.stringify(entry("b"))], {
      a: "fine",
      b: "fine",
      c: "fine",
    });
    // Killed while appending c's line: no newline at the end.
    await Deno.writeTextFile(join(out, "index.jsonl"), JSON.stringify(entry("c")).slice(0, 40), {
      append: true,
    });
    const run = await cli(["report", out, "--markdown", "-"], { cwd: dir.path });
    assert.equal(run.code, 0, run.stderr);
    assert.ok(run.stderr.includes(`partial last index line`), run.stderr);
    assert.ok(run.stderr.includes(`${join(out, "index.jsonl")}:3`), run.stderr);
    assert.match(run.stdout, /^\| `a` \|/m);
    assert.match(run.stdout, /^\| `b` \|/m);
    assert.doesNotMatch(run.stdout, /`c`/);
  } finally {
    await dir.remove();
  }
});
