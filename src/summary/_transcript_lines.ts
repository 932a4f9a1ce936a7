/**
 * What each summary record says in the terminal transcript (internal to `text_view.ts`): pure
 * functions from a record, its strings first made terminal-safe by {@link terminalStrings}, and
 * a {@link Paint} (the view's colours, or none) to the text of its lines. The view keeps the
 * state (running calls, counts, the status line) and decides when a line is written.
 *
 * @module
 */

import { terminalText } from "../runtime/mod.ts";
import type { SummaryRecord } from "./records.ts";

/** A colour or weight of the transcript. */
export type Style = "dim" | "bold" | "red" | "green" | "yellow" | "cyan";

/** `text` in `style` (or as it is, without colours). */
export type Paint = (style: Style, text: string) => string;

type RecordOf<T extends SummaryRecord["type"]> = Extract<SummaryRecord, { type: T }>;

/** `value` with every string in it (keys are the schema's) passed through `terminalText`. */
export function terminalStrings<T>(value: T): T {
  if (typeof value === "string") return terminalText(value) as T;
  if (Array.isArray(value)) return value.map(terminalStrings) as T;
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, terminalStrings(item)]),
    ) as T;
  }
  return value;
}

/** Seconds with one decimal, or ms below one second. */
export function duration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** One line of at most `max` characters (newlines shown as ⏎). */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\r?\n/g, "⏎");
  return flat.length <= max ? flat : flat.slice(0, max - 1) + "…";
}

/** `host.ready`: the agent, the model and the number of tools. */
export function readyLine(record: RecordOf<"host.ready">, s: Paint): string {
  const model = record.model === null ? record.provider : `${record.provider}/${record.model}`;
  return s("dim", `  ${record.agent} · ${model} · ${record.tools.length} tool(s)`);
}

/** A finished or failed `activity` (one the agent did on its own). */
export function activityLine(record: RecordOf<"activity">, s: Paint): string {
  return record.state === "failed"
    ? s("red", `  ✘ ${record.name}: ${record.summary}`)
    : s("dim", `  · ${record.summary}`);
}

/** An `approval`: the call, the decision and who or what decided it. */
export function approvalLine(record: RecordOf<"approval">, s: Paint): string {
  const allowed = record.decision === "allow";
  const rule = record.rule === undefined ? "" : ` ${record.rule}`;
  const by = record.decided_by === "flag"
    ? `by --approve${rule}`
    : record.decided_by === "config"
    ? `by the config's approvals rule${rule}`
    : record.decided_by === "user"
    ? "by you"
    : record.decided_by === "host"
    ? "you decide when the call arrives"
    : "expired";
  return `${s("yellow", "?")} approve ${record.summary} ${
    s(allowed ? "green" : "red", allowed ? "→ allowed" : "→ denied")
  } ${s("dim", `(${by})`)}`;
}

/** A `tool.call`: the tool and its shortened arguments. */
export function callLine(record: RecordOf<"tool.call">, s: Paint): string {
  const args = record.arguments_preview ?? `${record.arguments_bytes} bytes of arguments`;
  return `${s("cyan", "→")} ${s("bold", record.name)} ${s("dim", oneLine(args, 120))}`;
}

/** A `tool.result`: the outcome with its duration, and the delivery when it was not complete. */
export function resultLines(record: RecordOf<"tool.result">, s: Paint): string[] {
  const time = s("dim", duration(record.duration_ms));
  const lines: string[] = [];
  if (record.outcome === "success") {
    lines.push(`${s("green", "✔")} ${record.name} ${time} ${s("dim", `· ${record.bytes} B`)}`);
  } else if (record.outcome === "cancelled") {
    const how = record.killed ? " (killed)" : record.abandoned ? " (abandoned)" : "";
    lines.push(`${s("yellow", "⊘")} ${record.name} cancelled${how} ${time}`);
  } else {
    lines.push(`${s("red", "✘")} ${record.name} ${s("red", record.error_code ?? "error")} ${time}`);
  }
  if (record.delivery !== "complete") {
    lines.push(s("red", `  result ${record.delivery}: ${record.delivery_error ?? ""}`));
  }
  return lines;
}

/** A `tool.progress` as the running call's status shows it: `3/10 message`. */
export function progressText(record: RecordOf<"tool.progress">): string {
  const of = record.total === undefined ? "" : `/${record.total}`;
  return `${record.progress}${of}${
    record.message === undefined ? "" : ` ${oneLine(record.message, 40)}`
  }`;
}

/**
 * A `turn.finished`'s outcome for the closing line. A completed turn can still fail the run
 * (`--fail-on-tool-error`: `exit_reason`).
 */
export function finishedOutcome(record: RecordOf<"turn.finished">, s: Paint): string {
  const ok = record.outcome === "completed" && record.exit_code === 0;
  const why = record.outcome === "cancelled" && record.cancelled_by !== null
    ? ` by ${record.cancelled_by}`
    : record.error_code !== null
    ? ` (${record.error_code})`
    : record.exit_reason !== undefined
    ? ` (${record.exit_reason.replaceAll("_", " ")})`
    : "";
  return ok ? s("green", "✔ completed") : s("red", `✘ ${record.outcome}${why}`);
}
