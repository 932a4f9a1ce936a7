/**
 * NDJSON records of the browsing commands (`sessions`, `history`, `models`, `select`;
 * `docs/summaries.md`): like the run summaries, each has `type`, `ts` (RFC 3339 UTC) and
 * `v` (1), is validated before it is written, and failures end with a `host.error`.
 *
 * @module
 */

import { z } from "zod";
import { HOST_ERROR_CODES } from "../summary/records.ts";
import { terminalSafeJson, terminalText, writeStdout } from "../runtime/mod.ts";

const Effort = z.enum(["default", "low", "medium", "high", "xhigh", "max"]);
const Notices = z.array(z.string());

const SessionListed = z.strictObject({
  type: z.literal("session.listed"),
  session_id: z.string(),
  title: z.string().nullable(),
  updated_at: z.string().nullable(),
  eligibility: z.enum(["available", "cwd_unverified", "busy"]),
  notices: Notices,
});
const SessionsDone = z.strictObject({
  type: z.literal("sessions.done"),
  count: z.int().min(0),
  notices: Notices,
});
const HistoryEntry = z.strictObject({
  type: z.literal("history.entry"),
  message_id: z.string(),
  kind: z.string(),
  text: z.string(),
  partial: z.boolean(),
});
const HistoryDone = z.strictObject({
  type: z.literal("history.done"),
  session_id: z.string(),
  revision: z.string(),
  entries: z.int().min(0),
  complete: z.boolean(),
});
const ModelChoice = z.strictObject({
  type: z.literal("model.choice"),
  provider: z.string(),
  model: z.string(),
  provider_name: z.string().nullable(),
  model_name: z.string().nullable(),
  availability: z.enum(["available", "authentication_unavailable"]),
  effort_support: z.enum(["supported", "unsupported", "unknown"]),
  permitted_efforts: z.array(Effort),
  selected: z.boolean(),
});
const SelectionFields = {
  provider: z.string().nullable(),
  model: z.string().nullable(),
  requested_effort: Effort,
  effective_effort: Effort.nullable(),
};
const ModelsDone = z.strictObject({
  type: z.literal("models.done"),
  count: z.int().min(0),
  notices: Notices,
  selection: z.strictObject(SelectionFields).nullable(),
});
const Selection = z.strictObject({
  type: z.literal("selection"),
  session_id: z.string(),
  ...SelectionFields,
  history_revision: z.string().nullable(),
  notices: Notices,
});
const HostError = z.strictObject({
  type: z.literal("host.error"),
  code: z.enum(HOST_ERROR_CODES),
  message: z.string(),
  exit_code: z.int(),
});

/** Any record of the browsing commands (without `ts`/`v`). */
export const BrowseRecordSchema = z.discriminatedUnion("type", [
  SessionListed,
  SessionsDone,
  HistoryEntry,
  HistoryDone,
  ModelChoice,
  ModelsDone,
  Selection,
  HostError,
]);
/** Any record of the browsing commands. */
export type BrowseRecord = z.infer<typeof BrowseRecordSchema>;

const encoder = new TextEncoder();

/** Writes browse records (NDJSON) or plain lines to stdout, in order. */
export class BrowseOutput {
  readonly #lines: string[] = [];

  /** Validate and queue one record. Throws TypeError on an invalid record (a bug). */
  record(input: BrowseRecord): void {
    const parsed = BrowseRecordSchema.safeParse(input);
    if (!parsed.success) throw new TypeError(`Invalid record: ${input.type}`);
    const { type, ...rest } = parsed.data;
    this.#lines.push(terminalSafeJson({ type, ts: new Date().toISOString(), v: 1, ...rest }));
  }

  /** Queue one plain text line (tables); the backend's texts in it show controls visibly. */
  line(text: string): void {
    this.#lines.push(terminalText(text));
  }

  /** Write what is queued. */
  async flush(): Promise<void> {
    if (this.#lines.length === 0) return;
    const text = this.#lines.join("\n") + "\n";
    this.#lines.length = 0;
    await writeStdout(encoder.encode(text));
  }
}
