/**
 * The HTML report: one self-contained file (inline CSS, SVG and script; a
 * Content-Security-Policy that forbids every network load and runs only the
 * page's own script and style, by hash) with the tables of
 * the Markdown report and charts: outcome counts, the item duration
 * distribution, per-tool latency (p50/p95), and a timeline of one item's tool
 * calls on a time axis. The item is chosen in a list on the page (or with
 * `#item=ID` in the address); `--item` picks the first one shown (default:
 * the slowest item with tool calls).
 *
 * When the script has drawn the timeline it sets `data-ready="1"` on
 * `<body>` (the headless-browser test waits for it).
 *
 * @module
 */

import { createHash } from "node:crypto";
import type { LoadedBatch } from "./load.ts";
import { backendLine, formatMs, referenceWarning, TOOL_COLUMNS, toolCells } from "./markdown.ts";
import { OUTCOMES, type ReportStats, resultOf } from "./stats.ts";
import { barChart, columnChart, escapeHtml } from "./svg.ts";

/** At most this many items' timelines are embedded (the slowest ones, plus the chosen one). */
export const TIMELINE_ITEMS = 2_000;

/** At most this many failed items are listed. */
export const FAILED_ROWS = 200;

const OUTCOME_COLORS: Record<string, string> = {
  completed: "#54a24b",
  "completed, exit ≠ 0": "#f58518",
  failed: "#e45756",
  cancelled: "#eeca3b",
  error: "#b279a2",
};

const STYLE = `body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;max-width:1100px}
h1{font-size:22px}h2{font-size:17px;margin-top:28px}table{border-collapse:collapse;margin:8px 0}
td,th{border:1px solid #ddd;padding:3px 8px;text-align:left;vertical-align:top}th{background:#f4f4f4}
td.num{text-align:right}svg text{font:12px system-ui,sans-serif;fill:#222}svg text.title{font-weight:600}
svg text.small{font-size:10px}.charts{display:flex;flex-wrap:wrap;gap:16px}code{font-size:12px}`;

/** The page's script: draws the timeline of the chosen item from the embedded data. */
const SCRIPT = `(() => {
const data = JSON.parse(document.getElementById("timeline-data").textContent);
const select = document.getElementById("item-select");
const svgNs = "http://www.w3.org/2000/svg";
const colors = { success: "#54a24b", error: "#e45756", cancelled: "#eeca3b" };
function el(name, attrs, text) {
  const node = document.createElementNS(svgNs, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}
function ticks(max) {
  const raw = max / 6;
  const pow = Math.pow(10, Math.floor(Math.log10(Math.max(raw, 1))));
  const step = [1, 2, 5, 10].map((m) => m * pow).find((s) => s >= raw) || pow;
  const out = [];
  for (let t = 0; t <= max; t += step) out.push(t);
  return out;
}
function fmt(ms) { return ms < 1000 ? Math.round(ms) + " ms" : (ms / 1000).toFixed(1) + " s"; }
function draw(id) {
  const item = data.items.find((i) => i.id === id) || data.items[0];
  const svg = document.getElementById("timeline");
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  if (!item) { svg.setAttribute("data-item", ""); return; }
  select.value = item.id;
  const left = 160, width = 900, row = 22, top = 36;
  const calls = item.calls;
  const end = Math.max(1, item.duration_ms, ...calls.map((c) => c[1] + c[2]));
  const plot = width - left - 20;
  const height = top + row * Math.max(1, calls.length) + 30;
  svg.setAttribute("viewBox", "0 0 " + width + " " + height);
  svg.setAttribute("width", width);
  svg.setAttribute("height", height);
  svg.setAttribute("data-item", item.id);
  svg.appendChild(el("text", { x: 0, y: 14, class: "title" },
    "Tool calls of " + item.id + " (" + item.outcome + ", " + fmt(item.duration_ms) + ")"));
  const axisY = top + row * Math.max(1, calls.length) + 4;
  svg.appendChild(el("line", { x1: left, y1: axisY, x2: left + plot, y2: axisY, stroke: "#888" }));
  for (const t of ticks(end)) {
    const x = left + (t / end) * plot;
    svg.appendChild(el("line", { x1: x, y1: top - 6, x2: x, y2: axisY + 4, stroke: "#eee" }));
    svg.appendChild(el("text", { x, y: axisY + 18, "text-anchor": "middle", class: "small" }, fmt(t)));
  }
  calls.forEach((c, i) => {
    const y = top + i * row;
    const x = left + (c[1] / end) * plot;
    const w = Math.max(2, (c[2] / end) * plot);
    svg.appendChild(el("text", { x: left - 8, y: y + 13, "text-anchor": "end" }, c[0]));
    const rect = el("rect", { x, y, width: w, height: row - 6, fill: colors[c[3]] || "#888", class: "call" });
    rect.appendChild(el("title", {}, c[0] + ": " + c[3] + ", " + fmt(c[2]) + " at " + fmt(c[1])));
    svg.appendChild(rect);
  });
  if (calls.length === 0) svg.appendChild(el("text", { x: left, y: top + 12 }, "No tool calls"));
}
for (const item of data.items) {
  const option = document.createElement("option");
  option.value = item.id;
  option.textContent = item.id + " — " + item.calls.length + " call(s), " + fmt(item.duration_ms);
  select.appendChild(option);
}
select.addEventListener("change", () => { location.hash = "item=" + encodeURIComponent(select.value); });
function fromHash() {
  const m = /^#item=(.*)$/.exec(location.hash);
  draw(m ? decodeURIComponent(m[1]) : data.initial);
}
window.addEventListener("hashchange", fromHash);
fromHash();
document.body.setAttribute("data-ready", "1");
})();`;

/** The CSP source of an inline `<script>` or `<style>` whose text is `text`. */
function hashSource(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

/**
 * The page's Content-Security-Policy: no network load, no form, no `<base>`, and only the
 * page's own script and style, by hash — no inline event handler, `javascript:` URL or
 * injected `<script>`/`<style>` runs, whatever the data holds.
 */
export const CSP: string = [
  "default-src 'none'",
  `style-src ${hashSource(STYLE)}`,
  `script-src ${hashSource(SCRIPT)}`,
  "img-src data:",
  "base-uri 'none'",
  "form-action 'none'",
].join("; ");

function table(head: string[], rows: string[][], numeric: number[] = []): string {
  const th = head.map((h) => `<th>${escapeHtml(h)}</th>`).join("");
  const body = rows.map((row) =>
    `<tr>${
      row.map((c, i) => `<td${numeric.includes(i) ? ' class="num"' : ""}>${c}</td>`).join("")
    }</tr>`
  ).join("");
  return `<table><thead><tr>${th}</tr></thead><tbody>${body}</tbody></table>`;
}

/** Options of {@link renderHtml}. */
export interface HtmlOptions {
  /** The item whose timeline is shown first (default: the slowest item with tool calls). */
  item?: string;
  /** Page title. */
  title?: string;
}

/**
 * Render the HTML report. Throws RangeError when `options.item` is not an item of the batch.
 *
 * @example
 * ```ts
 * import { renderHtml } from "./html.ts";
 * import { computeStats } from "./stats.ts";
 * const batch = { dirs: ["out"], items: [], duplicates: [] };
 * console.assert(renderHtml(batch, computeStats(batch)).includes("Content-Security-Policy"));
 * ```
 */
export function renderHtml(
  batch: LoadedBatch,
  stats: ReportStats,
  options: HtmlOptions = {},
): string {
  if (options.item !== undefined && !batch.items.some((i) => i.id === options.item)) {
    throw new RangeError(`Option --item names no item of the report: ${options.item}`);
  }
  const json = timelineJson(batch, options.item);
  const title = options.title ?? "Batch report";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body>
<h1>${escapeHtml(title)}</h1>
${totalsHtml(batch, stats)}<div class="charts">${outcomeChart(stats)}${durationChart(stats)}</div>
<h2>Outcomes</h2>
${
    table(
      ["Outcome", "Items"],
      OUTCOMES.map((o) => [escapeHtml(o), String(stats.outcomes[o] ?? 0)]),
      [1],
    )
  }
<h2>Tool calls by tool</h2>
${latencyChart(stats)}
${toolsTable(stats)}
<h2>Timeline of an item</h2>
<label>Item: <select id="item-select"></select></label>
<div><svg id="timeline" role="img" aria-label="Tool call timeline"></svg></div>
<h2>Slowest items</h2>
${slowestTable(stats)}
<h2>Failed items</h2>
${failedHtml(stats)}
<script type="application/json" id="timeline-data">${json}</script>
<script>${SCRIPT}</script>
</body></html>
`;
}

/**
 * The timeline data the page's script draws, as JSON safe inside `<script>`: the
 * item shown first (`item`, else the slowest with tool calls) and the calls of
 * the {@link TIMELINE_ITEMS} slowest items, plus that one.
 */
function timelineJson(batch: LoadedBatch, item: string | undefined): string {
  const bySlowness = [...batch.items].sort((a, b) => b.duration_ms - a.duration_ms);
  const initial = item ??
    (bySlowness.find((i) => i.calls.length > 0) ?? bySlowness[0])?.id ??
    "";
  const embedded = bySlowness.slice(0, TIMELINE_ITEMS);
  if (initial !== "" && !embedded.some((i) => i.id === initial)) {
    embedded.push(batch.items.find((i) => i.id === initial)!);
  }
  const timeline = {
    initial,
    items: embedded.map((i) => ({
      id: i.id,
      outcome: i.outcome,
      duration_ms: i.duration_ms,
      calls: i.calls.map((c) => [c.name, c.startMs, c.durationMs, c.outcome]),
    })),
  };
  // JSON inside <script>: no "</script" or "<!--" can end or confuse it.
  return JSON.stringify(timeline).replace(/</g, "\\u003c");
}

/** The totals paragraph, and the warning when items ran on the reference backend. */
function totalsHtml(batch: LoadedBatch, stats: ReportStats): string {
  return `<p id="totals">${stats.total} items from ${batch.dirs.length} folder(s): <b>${stats.succeeded} succeeded</b>, <b>${stats.failed.length} failed</b> (succeeded: the turn completed with exit code 0). ${
    escapeHtml(backendLine(stats))
  } Item time ${formatMs(stats.itemTimeMs)} in total, p50 ${formatMs(stats.p50Ms)}, p95 ${
    formatMs(stats.p95Ms)
  }.</p>
${
    (stats.backends.reference ?? 0) > 0
      ? `<p id="reference-warning"><b>${
        escapeHtml(referenceWarning(stats.backends.reference!))
      }</b></p>\n`
      : ""
  }`;
}

/** Bars: items per outcome. */
function outcomeChart(stats: ReportStats): string {
  return barChart(
    "chart-outcomes",
    "Items by outcome",
    OUTCOMES.map((o) => ({
      label: o,
      value: stats.outcomes[o] ?? 0,
      color: OUTCOME_COLORS[o] ?? "#888",
    })),
  );
}

/** Columns: the item duration histogram. */
function durationChart(stats: ReportStats): string {
  return columnChart(
    "chart-durations",
    "Item duration distribution",
    stats.histogram.map((b) => ({ label: `<${formatMs(b.toMs)}`, value: b.count })),
  );
}

/** Bars: p50 and p95 of the first 30 tools. */
function latencyChart(stats: ReportStats): string {
  return barChart(
    "chart-tools",
    "Tool latency (p50 / p95)",
    stats.tools.slice(0, 30).flatMap((t) => [
      { label: `${t.name} p50`, value: t.p50Ms, text: formatMs(t.p50Ms), color: "#4c78a8" },
      { label: `${t.name} p95`, value: t.p95Ms, text: formatMs(t.p95Ms), color: "#9ecae9" },
    ]),
  );
}

/** Calls, errors and latency per tool. */
function toolsTable(stats: ReportStats): string {
  return table(
    TOOL_COLUMNS,
    stats.tools.map((t) => [`<code>${escapeHtml(t.name)}</code>`, ...toolCells(t)]),
    [1, 2, 3, 4, 5, 6, 7],
  );
}

/** The slowest items, each linking to its timeline. */
function slowestTable(stats: ReportStats): string {
  return table(
    ["Item", "Duration", "Outcome", "Tool calls"],
    stats.slowest.map((i) => [
      `<a href="#item=${encodeURIComponent(i.id)}"><code>${escapeHtml(i.id)}</code></a>`,
      formatMs(i.duration_ms),
      escapeHtml(i.outcome),
      String(i.calls.length),
    ]),
    [1, 3],
  );
}

/** The first {@link FAILED_ROWS} failed items (or "None."), and how many more there are. */
function failedHtml(stats: ReportStats): string {
  const failedRows = stats.failed.slice(0, FAILED_ROWS).map((i) => [
    `<code>${escapeHtml(i.id)}</code>`,
    escapeHtml(resultOf(i)),
    escapeHtml(String(i.exit_code)),
    escapeHtml(i.error ?? ""),
  ]);
  const more = stats.failed.length > FAILED_ROWS
    ? `<p>… and ${stats.failed.length - FAILED_ROWS} more.</p>`
    : "";
  return `${
    failedRows.length === 0
      ? "<p>None.</p>"
      : table(["Item", "Outcome", "Exit code", "Error"], failedRows, [2])
  }${more}`;
}
