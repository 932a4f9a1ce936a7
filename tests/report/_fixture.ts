/** Synthetic batch output folders for the report tests (no backend needed). */

import { entryFromRecords } from "../../src/batch/index_entry.ts";
import { BatchStore } from "../../src/batch/store.ts";

/** One synthetic tool call: name, start and duration (ms after the item start), outcome. */
export type CallSpec = [string, number, number, "success" | "error" | "cancelled"];

/** One synthetic item. */
export interface ItemSpec {
  id: string;
  durationMs: number;
  calls: CallSpec[];
  /** `completed` (default), `failed` (run failed) or `error` (host.error). */
  end?: "completed" | "failed" | "error";
  /** The error text of a failed or error item. */
  error?: string;
}

const T0 = Date.parse("2026-12-01T10:00:00.000Z");

/** The summary records of `item`. */
export function recordsOf(item: ItemSpec, offsetMs = 0): Record<string, unknown>[] {
  const at = (ms: number) => new Date(T0 + offsetMs + ms).toISOString();
  const head = { v: 1 };
  const records: Record<string, unknown>[] = [
    {
      type: "session",
      ts: at(0),
      ...head,
      session_id: `s-${item.id}`,
      durable: true,
      resumed: false,
    },
  ];
  item.calls.forEach(([name, start, duration, outcome], i) => {
    const call_id = `c${i}`;
    records.push({ type: "tool.call", ts: at(start), ...head, run_id: "r", call_id, name });
    records.push({
      type: "tool.result",
      ts: at(start + duration),
      ...head,
      run_id: "r",
      call_id,
      name,
      outcome,
      error_code: outcome === "error" ? "tool_failed" : null,
      duration_ms: duration,
    });
  });
  if (item.end === "error") {
    records.push({
      type: "host.error",
      ts: at(item.durationMs),
      ...head,
      code: "backend_exited",
      message: item.error ?? "Backend exited",
      exit_code: 4,
    });
  } else {
    records.push({
      type: "message",
      ts: at(item.durationMs - 1),
      ...head,
      text: `done ${item.id}`,
    });
    records.push({
      type: "turn.finished",
      ts: at(item.durationMs),
      ...head,
      outcome: item.end ?? "completed",
      error_code: item.end === "failed" ? (item.error ?? "execution_failed") : null,
      exit_code: item.end === "failed" ? 1 : 0,
    });
  }
  return records;
}

/** Write `items` into the output folder `dir` as `batch` would. */
export async function writeFolder(dir: string, items: readonly ItemSpec[]): Promise<void> {
  const store = await BatchStore.open(dir);
  for (const [i, item] of items.entries()) {
    const records = recordsOf(item, i * 10_000);
    const text = records.map((r) => JSON.stringify(r)).join("\n") + "\n";
    await store.commit(item.id, new TextEncoder().encode(text), entryFromRecords(item.id, records));
  }
}

/** A varied set of items: successes, a failure, a host error, tool errors. */
export function sampleItems(count = 24): ItemSpec[] {
  const items: ItemSpec[] = [];
  for (let i = 0; i < count; i++) {
    const id = `case-${String(i).padStart(3, "0")}`;
    const lookup = 20 + ((i * 37) % 180);
    const fetch = 100 + ((i * 53) % 900);
    const calls: CallSpec[] = [
      ["lookup", 30, lookup, "success"],
      ["fetch_page", 40 + lookup, fetch, i % 5 === 0 ? "error" : "success"],
    ];
    if (i % 4 === 0) calls.push(["lookup", 60 + lookup + fetch, 15, "success"]);
    const durationMs = 120 + lookup + fetch + (i % 7) * 40;
    items.push({
      id,
      durationMs,
      calls,
      ...(i === 7 ? { end: "failed" as const, error: "execution_failed" } : {}),
      ...(i === 11 ? { end: "error" as const, error: "Backend exited with | pipe <b>" } : {}),
    });
  }
  return items;
}
