/**
 * Write tools behind `magi-tools mcp` (stdio and `--http`) keep an approval policy,
 * `--approve deny|allow|ask` (default `ask`); read tools are never asked about.
 *
 * - `allow`: every write tool runs.
 * - `deny`: none runs; the call answers an `isError` result saying so.
 * - `ask`: when the client declared the `elicitation` capability (form mode) at `initialize`,
 *   the server first validates the arguments against the tool's input schema (an invalid call
 *   is answered `invalid_arguments` and never put to the user), then sends `elicitation/create`
 *   (related to the `tools/call` request, so over HTTP it travels on that call's stream) with a
 *   message naming the tool and showing every argument field, one per line in sorted key order,
 *   each value cut on its own with a note of how many bytes were cut (`call/approval.ts`),
 *   and a one-field form `{ approve: boolean }`. Only `accept` with `approve: true` runs the
 *   tool; `decline`, `cancel`, `accept` without `approve: true`, an error answer, the call's
 *   cancel and no answer within the expiry (`--approve-timeout`, default
 *   {@link DEFAULT_APPROVAL_TIMEOUT_MS}, never longer than the call's own deadline) do not.
 *   A client without the capability gets an `isError` result saying the tool was not run and
 *   that `--approve allow` in the server's command allows write tools.
 *
 * The texts the model sees are `writeToolNotRun` in `src/tool/answers.ts`.
 *
 * @module
 */

import {
  type Answer,
  invalidArguments,
  type WriteNotRun,
  writeToolNotRun,
} from "../tool/answers.ts";
import { argumentView, argumentViewText, schemaIssues } from "../call/approval.ts";
import { ElicitResultSchema, ErrorCode, McpError } from "./_sdk.ts";
import { type ApprovalPolicy, decideByPolicy } from "../call/approval_rules.ts";

/** How write tools are answered (the `mcp --approve` value). */
export type McpApproveMode = "deny" | "allow" | "ask";

/** How long `ask` waits for the user's answer by default, ms. */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 120_000;

/** The approval policy of one `magi-tools mcp`. */
export interface McpApproval {
  /** `--approve`. */
  readonly mode: McpApproveMode;
  /** `--approve-timeout`: the most `ask` waits for an answer, ms (capped by the call's deadline). */
  readonly timeoutMs: number;
  /**
   * Approval rules (`--approve allow=TOOL`, the config's `approvals`): decide each write tool by
   * its name and source (`call/approval_rules.ts`); absent: `mode` for every write tool.
   */
  readonly policy?: ApprovalPolicy;
}

/**
 * The policy for one write tool: `policy`'s decision for `name` of `source` (with the rule when
 * a rule or the config decided), or `policy` itself without rules.
 *
 * @example
 * ```ts
 * import { approvalFor } from "./write_policy.ts";
 * import { parseApproveFlags } from "../call/approval_rules.ts";
 * const policy = { mode: "ask" as const, timeoutMs: 1000, policy: parseApproveFlags(["allow=a"], "ask") };
 * console.assert(approvalFor(policy, "a", "module").mode === "allow");
 * console.assert(approvalFor(policy, "b", "module").mode === "ask");
 * ```
 */
export function approvalFor(
  approval: McpApproval,
  name: string,
  source: string,
): McpApproval & { readonly rule?: string } {
  const policy = approval.policy;
  if (policy === undefined) return approval;
  const decided = decideByPolicy(policy, name, source);
  const ruled = policy.rules.length > 0 || decided.origin === "config";
  return { ...approval, mode: decided.decision, ...(ruled ? { rule: decided.rule } : {}) };
}

/** The default policy: ask, for at most {@link DEFAULT_APPROVAL_TIMEOUT_MS}. */
export const DEFAULT_APPROVAL: McpApproval = {
  mode: "ask",
  timeoutMs: DEFAULT_APPROVAL_TIMEOUT_MS,
};

/** What {@link approveWrite} needs of the session and the request. */
export interface ApprovalContext {
  /** The client's capabilities from `initialize` (the SDK server's `getClientCapabilities()`). */
  readonly capabilities: { readonly elicitation?: { readonly form?: unknown } } | undefined;
  /** Sends a request related to the `tools/call` being handled (the SDK handler's `sendRequest`). */
  readonly sendRequest: (
    request: { method: "elicitation/create"; params: Record<string, unknown> },
    schema: typeof ElicitResultSchema,
    options: { signal: AbortSignal; timeout: number },
  ) => Promise<{ action: string; content?: Record<string, unknown> }>;
  /** The call's signal (the client's cancel). */
  readonly signal: AbortSignal;
  /** The call's own deadline, ms. */
  readonly deadlineMs: number;
}

/** The one field of the approval form. */
export const APPROVE_FIELD = "approve";

/**
 * Decide whether write tool `name` runs with `args`: null when it may, else the answer the
 * caller returns instead (an `isError` result).
 */
export async function approveWrite(
  policy: McpApproval & { readonly rule?: string },
  call: {
    readonly name: string;
    readonly args: Record<string, unknown>;
    /** The tool's `input_schema`: checked before the user is asked. */
    readonly schema?: Readonly<Record<string, unknown>>;
  },
  context: ApprovalContext,
): Promise<Answer | null> {
  if (policy.mode === "allow") return null;
  const refuse = (why: WriteNotRun) => writeToolNotRun(call.name, why);
  if (policy.mode === "deny") {
    return refuse(
      policy.rule === undefined ? { kind: "deny" } : { kind: "rule", rule: policy.rule },
    );
  }
  if (context.capabilities?.elicitation?.form === undefined) return refuse({ kind: "cannot_ask" });
  // Never put an invalid call to the user: the usual invalid_arguments answer instead.
  const issues = call.schema === undefined ? null : schemaIssues(call.schema, call.args);
  if (issues !== null) return invalidArguments(issues);
  const ms = Math.max(1, Math.min(policy.timeoutMs, context.deadlineMs));
  let answer: { action: string; content?: Record<string, unknown> };
  try {
    answer = await context.sendRequest(
      {
        method: "elicitation/create",
        params: {
          mode: "form",
          message: approvalMessage(call.name, call.args, ms),
          requestedSchema: {
            type: "object",
            properties: {
              [APPROVE_FIELD]: {
                type: "boolean",
                title: `Run ${call.name}`,
                description: "Check to let this write tool run once with the arguments shown",
                default: false,
              },
            },
            required: [APPROVE_FIELD],
          },
        },
      },
      ElicitResultSchema,
      { signal: context.signal, timeout: ms },
    );
  } catch (error) {
    if (context.signal.aborted) return refuse({ kind: "cancelled" });
    if (
      error instanceof McpError && (error as { code?: unknown }).code === ErrorCode.RequestTimeout
    ) {
      return refuse({ kind: "expired", ms });
    }
    return refuse({
      kind: "failed",
      message: error instanceof Error ? error.message : String(error),
    });
  }
  if (answer.action === "accept" && answer.content?.[APPROVE_FIELD] === true) return null;
  return refuse({ kind: answer.action === "cancel" ? "cancelled" : "declined" });
}

/**
 * The message the user reads: the tool, every argument field on its own line (sorted keys, each
 * value as JSON cut on its own, `call/approval.ts`) and the expiry. Arguments come from the
 * model: JSON escapes C0 controls, and C1 controls and DEL are escaped here too, so nothing in
 * them can drive a terminal that shows the message.
 */
export function approvalMessage(name: string, args: Record<string, unknown>, ms: number): string {
  const lines = argumentViewText(argumentView(args)).map((line) =>
    "  " +
    line.replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
  );
  return `magi-tools: approve the write tool ${name}? It runs with these arguments:\n` +
    `${lines.join("\n")}\n` +
    `(no answer within ${ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`}: not run)`;
}
