/**
 * `report DIR... [--markdown FILE] [--html FILE] [--item ID]`: merge the
 * output folders of one batch (or of its shards) and write the Markdown
 * and/or HTML report. Without `--markdown` and `--html` the Markdown goes to
 * stdout; `--markdown -` also means stdout. Exit 0, or 2 naming the folder,
 * file or item at fault — also an index line that is not a valid entry (its
 * file, line and field: the folders may come from elsewhere, so every line is
 * checked; see `index_line.ts`).
 *
 * @module
 */

import { writeFile } from "node:fs/promises";
import { exitCode } from "../run/exit_codes.ts";
import { isHostError, UsageError } from "../errors/mod.ts";
import { terminalText, writeStderrLine, writeStdout } from "../runtime/mod.ts";
import { renderHtml } from "./html.ts";
import { loadBatches } from "./load.ts";
import { renderMarkdown } from "./markdown.ts";
import { computeStats } from "./stats.ts";

const encoder = new TextEncoder();

/** `report` options (`src/cli/args/batch.ts` parses them from the command line). */
export interface ReportOptions {
  /** Output folders of one or more batches (shards). */
  dirs: string[];
  /** `--markdown FILE` (`-` = stdout). */
  markdown: string | undefined;
  /** `--html FILE`. */
  html: string | undefined;
  /** `--item ID`: the item whose tool calls the HTML timeline shows (default: the slowest). */
  item: string | undefined;
}

async function writeOutput(path: string, report: string, flag: string): Promise<void> {
  // Tool errors in the report are the tools' text: no raw controls on a terminal, or in a file
  // that is later shown on one.
  const text = terminalText(report);
  if (path === "-") return await writeStdout(encoder.encode(text));
  try {
    await writeFile(path, text);
  } catch (error) {
    throw new UsageError(
      `Cannot write ${flag} file: ${path}: ${error instanceof Error ? error.message : error}`,
    );
  }
}

/** `report`: resolves with the exit code. */
export async function reportCommand(args: ReportOptions): Promise<number> {
  let batch;
  try {
    batch = await loadBatches(args.dirs, {
      onWarning: (message) => writeStderrLine(`magi-tools: ${message}`),
    });
  } catch (error) {
    if (isHostError(error, "report_input")) throw new UsageError(error.message);
    throw error;
  }
  if (batch.duplicates.length > 0) {
    writeStderrLine(
      `magi-tools: ${batch.duplicates.length} item id(s) appear in more than one folder; ` +
        `the latest result of each is counted: ${batch.duplicates.slice(0, 5).join(", ")}`,
    );
  }
  const stats = computeStats(batch);
  let html: string | undefined;
  if (args.html !== undefined) {
    try {
      html = renderHtml(batch, stats, args.item === undefined ? {} : { item: args.item });
    } catch (error) {
      if (error instanceof RangeError) throw new UsageError(error.message);
      throw error;
    }
  } else if (args.item !== undefined) {
    throw new UsageError("Option --item needs --html");
  }
  const markdown = args.markdown ?? (args.html === undefined ? "-" : undefined);
  if (markdown !== undefined) {
    await writeOutput(markdown, renderMarkdown(batch, stats), "--markdown");
  }
  if (html !== undefined && args.html !== undefined) await writeOutput(args.html, html, "--html");
  return exitCode("ok");
}
