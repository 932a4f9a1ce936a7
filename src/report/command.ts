/**
 * `report DIR... [--markdown FILE] [--html FILE] [--item ID]`: merge the
 * output folders of one batch (or of its shards) and write the Markdown
 * and/or HTML report. Without `--markdown` and `--html` the Markdown goes to
 * stdout; `--markdown -` also means stdout. Exit 0, or 2 naming the folder,
 * file or item at fault.
 *
 * @module
 */

import { writeFile } from "node:fs/promises";
import type { ReportArgs } from "../cli/args/batch.ts";
import { EXIT, UsageError } from "../run/exit_codes.ts";
import { terminalText, writeStderrLine, writeStdout } from "../runtime/mod.ts";
import { renderHtml } from "./html.ts";
import { loadBatches, ReportInputError } from "./load.ts";
import { renderMarkdown } from "./markdown.ts";
import { computeStats } from "./stats.ts";

const encoder = new TextEncoder();

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
export async function reportCommand(args: ReportArgs): Promise<number> {
  let batch;
  try {
    batch = await loadBatches(args.dirs);
  } catch (error) {
    if (error instanceof ReportInputError) throw new UsageError(error.message);
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
  return EXIT.ok;
}
