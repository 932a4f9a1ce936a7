/**
 * The Markdown report (fits `$GITHUB_STEP_SUMMARY`): totals by outcome, the
 * slowest items, tool calls by tool with error rates and p50/p95 durations,
 * and the failed items with their error.
 *
 * @module
 */

import type { LoadedBatch } from "./load.ts";
import { OUTCOMES, type ReportStats, resultOf, type ToolStats } from "./stats.ts";

/** At most this many failed items are listed (the step summary is limited to 1 MiB). */
export const MARKDOWN_FAILED_ROWS = 100;

/** Longest error text in a table cell, characters. */
export const CELL_CHARS = 200;

/** One line of at most {@link CELL_CHARS} characters: whitespace runs (newlines too) as one space. */
function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > CELL_CHARS ? `${line.slice(0, CELL_CHARS - 1)}…` : line;
}

/**
 * A table cell shown as written: one line, at most {@link CELL_CHARS} characters, with the
 * characters that would end the cell or turn text into markup escaped — `\\`, `|`, backticks,
 * `[`/`]` (links, images), `&` and `<` (entities, HTML).
 *
 * @example
 * ```ts
 * import { cell } from "./markdown.ts";
 * console.assert(cell("a | <img src=x>\n`b`") === "a \\| &lt;img src=x> \\`b\\`");
 * ```
 */
export function cell(text: string): string {
  return oneLine(text).replace(/[\\|`[\]]/g, (char) => `\\${char}`).replace(/&/g, "&amp;")
    .replace(/</g, "&lt;");
}

/**
 * An inline code span of `text` in a table cell: one line, at most {@link CELL_CHARS}
 * characters, fenced by more backticks than it holds in a row, pipes escaped.
 *
 * @example
 * ```ts
 * import { code } from "./markdown.ts";
 * console.assert(code("read_text") === "`read_text`");
 * console.assert(code("a`b|c") === "``a`b\\|c``");
 * ```
 */
export function code(text: string): string {
  const line = oneLine(text);
  const longest = Math.max(0, ...(line.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  const pad = line.startsWith("`") || line.endsWith("`") ? " " : "";
  return `${fence}${pad}${line.replace(/\|/g, "\\|")}${pad}${fence}`;
}

/** The columns of the per-tool table, in the Markdown and the HTML report alike. */
export const TOOL_COLUMNS = [
  "Tool",
  "Calls",
  "Errors",
  "Error rate",
  "Cancelled",
  "p50",
  "p95",
  "Max",
];

/** A tool's cells after its name, as {@link TOOL_COLUMNS} lists them. */
export function toolCells(t: ToolStats): string[] {
  return [
    String(t.calls),
    String(t.errors),
    `${(100 * t.errorRate).toFixed(1)}%`,
    String(t.cancelled),
    formatMs(t.p50Ms),
    formatMs(t.p95Ms),
    formatMs(t.maxMs),
  ];
}

/** Milliseconds as `850 ms` or `12.3 s`. */
export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function table(head: string[], rows: string[][]): string {
  const lines = [`| ${head.join(" | ")} |`, `|${head.map(() => " --- ").join("|")}|`];
  for (const row of rows) lines.push(`| ${row.join(" | ")} |`);
  return lines.join("\n");
}

/** `Backend: magi-code (4 items).`: which backends served the items ({@link ReportStats.backends}). */
export function backendLine(stats: Pick<ReportStats, "backends">): string {
  const entries = Object.entries(stats.backends).sort(([a], [b]) => (a < b ? -1 : 1));
  if (entries.length === 0) return "Backend: none.";
  return `Backend: ${
    entries.map(([kind, n]) => `${cell(kind)} (${n} item${n === 1 ? "" : "s"})`).join(", ")
  }.`;
}

/** The warning when items ran on the scripted reference backend. */
export function referenceWarning(count: number): string {
  return `${count} item${count === 1 ? "" : "s"} ran on the scripted reference backend ` +
    `(no model answered: a test or demo run, not an agent's work).`;
}

/**
 * Render the Markdown report.
 *
 * @example
 * ```ts
 * import { renderMarkdown } from "./markdown.ts";
 * import { computeStats } from "./stats.ts";
 * const batch = { dirs: ["out"], items: [], duplicates: [] };
 * console.assert(renderMarkdown(batch, computeStats(batch)).startsWith("## Batch report"));
 * ```
 */
export function renderMarkdown(batch: LoadedBatch, stats: ReportStats): string {
  const parts: string[] = [];
  parts.push("## Batch report");
  parts.push(
    `${stats.total} items from ${batch.dirs.length} folder${
      batch.dirs.length === 1 ? "" : "s"
    }: **${stats.succeeded} succeeded**, **${stats.failed.length} failed** ` +
      `(succeeded: the turn completed with exit code 0). ${backendLine(stats)} ` +
      `Item time ${formatMs(stats.itemTimeMs)} in total, p50 ${formatMs(stats.p50Ms)}, ` +
      `p95 ${formatMs(stats.p95Ms)}.`,
  );
  const reference = stats.backends.reference ?? 0;
  if (reference > 0) parts.push(`> ${referenceWarning(reference)}`);
  if (batch.duplicates.length > 0) {
    parts.push(
      `> ${batch.duplicates.length} item id(s) appear in more than one folder; the latest ` +
        `result of each is counted: ${cell(batch.duplicates.slice(0, 20).join(", "))}`,
    );
  }
  parts.push("### Outcomes");
  parts.push(table(
    ["Outcome", "Items", "Share"],
    OUTCOMES.map((o) => {
      const n = stats.outcomes[o] ?? 0;
      const share = stats.total === 0 ? 0 : (100 * n) / stats.total;
      return [o, String(n), `${share.toFixed(1)}%`];
    }),
  ));
  parts.push("### Slowest items");
  parts.push(
    stats.slowest.length === 0 ? "_No items._" : table(
      ["Item", "Duration", "Outcome", "Tool calls"],
      stats.slowest.map((i) => [
        code(i.id),
        formatMs(i.duration_ms),
        cell(i.outcome),
        String(i.calls.length),
      ]),
    ),
  );
  parts.push("### Tool calls by tool");
  parts.push(
    stats.tools.length === 0 ? "_No tool calls._" : table(
      TOOL_COLUMNS,
      stats.tools.map((t) => [code(t.name), ...toolCells(t)]),
    ),
  );
  parts.push("### Failed items");
  parts.push(
    stats.failed.length === 0 ? "_None._" : table(
      ["Item", "Outcome", "Exit code", "Error"],
      stats.failed.slice(0, MARKDOWN_FAILED_ROWS).map((i) => [
        code(i.id),
        cell(resultOf(i)),
        cell(String(i.exit_code)),
        cell(i.error ?? ""),
      ]),
    ) + (stats.failed.length > MARKDOWN_FAILED_ROWS
      ? `\n\n… and ${stats.failed.length - MARKDOWN_FAILED_ROWS} more.`
      : ""),
  );
  return `${parts.join("\n\n")}\n`;
}
