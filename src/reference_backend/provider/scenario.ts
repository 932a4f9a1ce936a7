/**
 * Scenario files of the scripted provider (JSONC). A scenario lists turns; each turn has
 * an optional `match` (a substring of the prompt) and steps run in order:
 *
 * - `{ "say": "text", "repeat"?: n }` — one assistant segment (text repeated n times).
 *   `{{result:<label>}}` is replaced by the text of the labelled tool result and
 *   `{{results}}` by one `name → text` line per tool result so far in the turn.
 * - `{ "call": { "tool", "arguments"?, "label"? } | [ ... ] }` — client tool calls, all
 *   started together (at most `concurrent_calls` outstanding at once).
 * - `{ "builtin": "shell"|"edit"|"apply_patch"|"builtin_search", "summary"?, "approval"?,
 *   "outcome"?: "completed"|"failed", "output"?, "label"? }` — a simulated built-in tool
 *   activity, approval first when `approval` is true. Nothing is executed.
 *   An optional `card: { "title", "fields": [{ "label", "value" }] }` shapes its tool card
 *   (default: the tool name and summary).
 * - `{ "title": "text" }` — a durable `title` record (session metadata; no event).
 * - `{ "reasoning": "text", "item"?, "provider_summary"? }` — a stored reasoning summary
 *   (`provider_summary` default true; a repeated `item` replaces the earlier one in history).
 * - `{ "compaction": "summary", "title"? }` — a `compaction` activity and record.
 * - `{ "sleep": ms }` — wait (cancellable).
 * - `{ "diagnostic": { "code", "summary" } }` — a diagnostic event.
 * - `{ "fail": "execution_failed"|"content_limit"|"persistence_failed"|"output_unavailable" }`
 *   — the run fails with that code.
 *
 * The first turn whose `match` occurs in the prompt (or that has no `match`) is used; when
 * none fits, the default planner runs.
 *
 * @module
 */

import { parse, type ParseError } from "jsonc-parser";
import { z } from "zod";
import { BUILTIN_TOOL_NAMES } from "../client_tools/builtins.ts";
import { issueReason, reportConfigError, syntaxReason } from "../startup/config_errors.ts";
import { utf8ByteLength } from "../../protocol/utf8.ts";

/** Largest scenario file, bytes. */
export const SCENARIO_FILE_BYTES = 4_194_304;
/** Largest expanded `say` text (text bytes × repeat), bytes. */
export const SAY_EXPANDED_BYTES = 67_108_864;

const Label = z.string().regex(/^[A-Za-z0-9._-]{1,64}$/);
const CallSpec = z.strictObject({
  tool: z.string().min(1).max(64),
  arguments: z.record(z.string(), z.unknown()).optional(),
  label: Label.optional(),
});
const Summary = z.string().max(1024);
const StepSchema = z.union([
  z.strictObject({ say: z.string(), repeat: z.int().min(1).max(SAY_EXPANDED_BYTES).optional() }),
  z.strictObject({ call: z.union([CallSpec, z.array(CallSpec).min(1).max(256)]) }),
  z.strictObject({
    builtin: z.enum(BUILTIN_TOOL_NAMES),
    summary: Summary.optional(),
    approval: z.boolean().optional(),
    outcome: z.enum(["completed", "failed"]).optional(),
    output: z.string().max(65_536).optional(),
    label: Label.optional(),
    card: z.strictObject({
      title: z.string().max(256),
      fields: z.array(z.strictObject({ label: z.string().max(1024), value: z.string().max(1024) }))
        .max(16).optional(),
    }).optional(),
  }),
  z.strictObject({ title: z.string().max(1024) }),
  z.strictObject({
    reasoning: z.string().max(65_536),
    item: Label.optional(),
    provider_summary: z.boolean().optional(),
  }),
  z.strictObject({ compaction: z.string().max(65_536), title: z.string().max(1024).optional() }),
  z.strictObject({ sleep: z.int().min(0).max(600_000) }),
  z.strictObject({
    diagnostic: z.strictObject({
      code: z.string().regex(/^[a-z][a-z0-9_]{0,63}$/),
      summary: Summary,
    }),
  }),
  z.strictObject({
    fail: z.enum(["execution_failed", "content_limit", "persistence_failed", "output_unavailable"]),
  }),
]);
const TurnSchema = z.strictObject({
  match: z.string().min(1).optional(),
  steps: z.array(StepSchema).max(10_000),
});
const ScenarioSchema = z.strictObject({ turns: z.array(TurnSchema).max(1_000) });

/** One client tool call of a step. */
export interface CallStep {
  tool: string;
  arguments: Record<string, unknown>;
  label: string | null;
}

/** One scripted step. */
export type Step =
  | { kind: "say"; text: string; repeat: number; literal: boolean }
  | { kind: "call"; calls: CallStep[] }
  | {
    kind: "builtin";
    tool: string;
    summary: string;
    approval: boolean;
    outcome: "completed" | "failed";
    output: string;
    label: string | null;
    card: { title: string; fields: { label: string; value: string }[] } | null;
  }
  | { kind: "title"; text: string }
  | { kind: "reasoning"; text: string; item: string | null; providerSummary: boolean }
  | { kind: "compaction"; summary: string; title: string | null }
  | { kind: "sleep"; ms: number }
  | { kind: "diagnostic"; code: string; summary: string }
  | {
    kind: "fail";
    code: "execution_failed" | "content_limit" | "persistence_failed" | "output_unavailable";
  };

/** One scripted turn. */
export interface ScenarioTurn {
  match: string | null;
  steps: Step[];
}

/** A parsed scenario. */
export interface Scenario {
  turns: ScenarioTurn[];
}

/** Parse a scenario text; `reason` explains a rejection (for tests and docs, never the wire). */
export function parseScenario(
  text: string,
): { ok: true; scenario: Scenario } | { ok: false; reason: string } {
  const errors: ParseError[] = [];
  const raw: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    return { ok: false, reason: `not valid JSONC: ${syntaxReason(text, errors)}` };
  }
  const parsed = ScenarioSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, reason: issueReason(parsed.error.issues) };
  const turns: ScenarioTurn[] = [];
  for (const [t, turn] of parsed.data.turns.entries()) {
    const steps: Step[] = [];
    for (const [s, step] of turn.steps.entries()) {
      const converted = convertStep(step);
      if (converted === null) {
        return {
          ok: false,
          reason:
            `$.turns[${t}].steps[${s}]: say text × repeat exceeds ${SAY_EXPANDED_BYTES} bytes`,
        };
      }
      steps.push(converted);
    }
    turns.push({ match: turn.match ?? null, steps });
  }
  return { ok: true, scenario: { turns } };
}

/**
 * Read and parse a scenario file. On failure `reason` names the file, the
 * JSON path and why (`scenario /x/s.jsonc: $.turns[0].steps[1].call.tool: …`),
 * and `report` (default: one line on stderr) is called with it.
 */
export async function loadScenario(
  path: string,
  report: (line: string) => void = reportConfigError,
): Promise<{ ok: true; scenario: Scenario } | { ok: false; reason: string }> {
  const result = await readScenario(path);
  if (!result.ok) {
    const reason = `scenario ${path}: ${result.reason}`;
    report(reason);
    return { ok: false, reason };
  }
  return result;
}

async function readScenario(
  path: string,
): Promise<{ ok: true; scenario: Scenario } | { ok: false; reason: string }> {
  let bytes: Uint8Array;
  try {
    const info = await Deno.stat(path);
    if (!info.isFile) return { ok: false, reason: "$: not a file" };
    if (info.size > SCENARIO_FILE_BYTES) {
      return { ok: false, reason: `$: larger than ${SCENARIO_FILE_BYTES} bytes` };
    }
    bytes = await Deno.readFile(path);
  } catch (error) {
    const why = error instanceof Deno.errors.NotFound
      ? "no such file"
      : error instanceof Error
      ? error.message
      : String(error);
    return { ok: false, reason: `$: cannot be read: ${why}` };
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, reason: "$: not valid UTF-8" };
  }
  return parseScenario(text);
}

/** The scripted turn for `prompt`, or null when the default planner should run. */
export function pickTurn(scenario: Scenario, prompt: string): ScenarioTurn | null {
  return scenario.turns.find((turn) => turn.match === null || prompt.includes(turn.match)) ?? null;
}

function convertStep(step: z.infer<typeof StepSchema>): Step | null {
  if ("say" in step) {
    const repeat = step.repeat ?? 1;
    if (utf8ByteLength(step.say) * repeat > SAY_EXPANDED_BYTES) return null;
    return { kind: "say", text: step.say, repeat, literal: false };
  }
  if ("call" in step) {
    const list = Array.isArray(step.call) ? step.call : [step.call];
    return {
      kind: "call",
      calls: list.map((c) => ({
        tool: c.tool,
        arguments: c.arguments ?? {},
        label: c.label ?? null,
      })),
    };
  }
  if ("builtin" in step) {
    return {
      kind: "builtin",
      tool: step.builtin,
      summary: step.summary ?? `Run ${step.builtin}`,
      approval: step.approval ?? false,
      outcome: step.outcome ?? "completed",
      output: step.output ?? "",
      label: step.label ?? null,
      card: step.card === undefined
        ? null
        : { title: step.card.title, fields: step.card.fields ?? [] },
    };
  }
  if ("title" in step && !("compaction" in step)) return { kind: "title", text: step.title };
  if ("reasoning" in step) {
    return {
      kind: "reasoning",
      text: step.reasoning,
      item: step.item ?? null,
      providerSummary: step.provider_summary ?? true,
    };
  }
  if ("compaction" in step) {
    return { kind: "compaction", summary: step.compaction, title: step.title ?? null };
  }
  if ("sleep" in step) return { kind: "sleep", ms: step.sleep };
  if ("diagnostic" in step) return { kind: "diagnostic", ...step.diagnostic };
  return { kind: "fail", code: step.fail };
}
