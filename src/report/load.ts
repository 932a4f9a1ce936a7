/**
 * Reading batch output folders for `report`: each folder's index (latest
 * line per id, only items whose file exists) and each item's tool calls from
 * its records. Several folders (the shards of one batch) merge into one set;
 * an id found in more than one folder keeps its latest result and is counted
 * in {@link LoadedBatch.duplicates}.
 *
 * @module
 */

import { HostError } from "../errors/mod.ts";
import { readFile, stat } from "node:fs/promises";
import type { IndexEntry } from "../batch/index_entry.ts";
import { parseRecords } from "../batch/index_entry.ts";
import { INDEX_FILE, listItemFiles } from "../batch/store.ts";
import { parseIndexLine } from "./index_line.ts";

/** One tool call of an item, from its `tool.call` and `tool.result` records. */
export interface ToolCallSpan {
  /** Tool name. */
  name: string;
  /** Start, ms after the item's first record. */
  startMs: number;
  /** Duration, ms (the `tool.result` record's `duration_ms`). */
  durationMs: number;
  /** `success`, `error` or `cancelled`. */
  outcome: string;
  /** The result's error code, or null. */
  errorCode: string | null;
}

/** A finished item with its tool calls. */
export interface ReportItem extends IndexEntry {
  /** The folder it was read from. */
  dir: string;
  /** Its tool calls in order of start. */
  calls: ToolCallSpan[];
  /** The backend that served it (`host.ready`'s `backend.kind`), or null when unrecorded. */
  backend: string | null;
}

/** The merged content of one or more output folders. */
export interface LoadedBatch {
  /** Folders read, in the given order. */
  dirs: string[];
  /** Finished items, ordered by id. */
  items: ReportItem[];
  /** Ids found in more than one folder (the latest result is kept). */
  duplicates: string[];
}

/** The tool calls in an item's records. */
export function callsOf(records: readonly Record<string, unknown>[]): ToolCallSpan[] {
  const times = records.map((r) => Date.parse(String(r.ts))).filter(Number.isFinite);
  const origin = times.length > 0 ? Math.min(...times) : 0;
  const started = new Map<string, number>();
  const calls: ToolCallSpan[] = [];
  for (const record of records) {
    const ts = Date.parse(String(record.ts));
    if (record.type === "tool.call" && typeof record.call_id === "string") {
      started.set(record.call_id, ts);
    } else if (record.type === "tool.result" && typeof record.call_id === "string") {
      const duration = typeof record.duration_ms === "number" ? record.duration_ms : 0;
      const start = started.get(record.call_id) ?? ts - duration;
      calls.push({
        name: String(record.name),
        startMs: Math.max(0, start - origin),
        durationMs: duration,
        outcome: String(record.outcome),
        errorCode: typeof record.error_code === "string" ? record.error_code : null,
      });
    }
  }
  return calls.sort((a, b) => a.startMs - b.startMs);
}

/** Options of {@link loadBatches}. */
export interface LoadOptions {
  /** Told about what is left out without an error (a partial last index line). */
  onWarning?: (message: string) => void;
}

/**
 * The index of `dir`, every line checked ({@link parseIndexLine}): its entries by id, the
 * last line of an id winning. A last line without its newline is what a batch killed while
 * appending leaves (the next `batch` cuts it off): it is left out, with a warning.
 */
async function readCheckedIndex(
  dir: string,
  options: LoadOptions,
): Promise<Map<string, IndexEntry>> {
  const file = `${dir}/${INDEX_FILE}`;
  const text = await readFile(file, "utf8");
  const lines = text.split("\n");
  const partial = lines.pop();
  if (partial !== undefined && partial !== "") {
    options.onWarning?.(
      `Left out a partial last index line (no newline; a batch was killed while writing it): ${file}:${
        lines.length + 1
      }`,
    );
  }
  const entries = new Map<string, IndexEntry>();
  for (const [index, line] of lines.entries()) {
    if (line === "") continue;
    const entry = parseIndexLine(line, `${file}:${index + 1}`);
    entries.set(entry.id, entry);
  }
  return entries;
}

/** A `backend.kind` as `host.ready` writes it (`magi-code`, `reference`, `other`). */
const BACKEND_KIND = /^[a-z][a-z0-9_-]{0,31}$/;

/** The `backend.kind` of an item's `host.ready` record (docs/summaries.md), or null. */
export function backendOf(records: readonly Record<string, unknown>[]): string | null {
  for (const record of records) {
    if (record.type !== "host.ready") continue;
    const backend = record.backend as { kind?: unknown } | undefined;
    // Item files are input like the index (a CI shard, a committed folder): only a backend
    // kind of the record's grammar is taken, anything else is "unknown".
    if (typeof backend?.kind !== "string") return null;
    return BACKEND_KIND.test(backend.kind) ? backend.kind : "unknown";
  }
  return null;
}

/**
 * Read and merge `dirs`; throws a `report_input` host error naming a folder that is not a
 * batch output folder (no `index.jsonl`), or the file, line and field of an index line that
 * is not a valid entry.
 */
export async function loadBatches(
  dirs: readonly string[],
  options: LoadOptions = {},
): Promise<LoadedBatch> {
  const byId = new Map<string, ReportItem>();
  const duplicates = new Set<string>();
  for (const dir of dirs) {
    try {
      await stat(`${dir}/${INDEX_FILE}`);
    } catch {
      throw new HostError("report_input", `Not a batch output folder (no ${INDEX_FILE}): ${dir}`);
    }
    const entries = await readCheckedIndex(dir, options);
    const files = await listItemFiles(dir);
    for (const [id, entry] of entries) {
      if (!files.has(id)) continue;
      const text = await readFile(`${dir}/items/${id}.ndjson`, "utf8");
      const records = parseRecords(text);
      const item: ReportItem = {
        ...entry,
        dir,
        calls: callsOf(records),
        backend: backendOf(records),
      };
      const earlier = byId.get(id);
      if (earlier !== undefined) {
        duplicates.add(id);
        if (earlier.started_at > item.started_at) continue;
      }
      byId.set(id, item);
    }
  }
  const items = [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { dirs: [...dirs], items, duplicates: [...duplicates].sort() };
}
