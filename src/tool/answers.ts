/**
 * Every text the model sees for a call that did not succeed, in one place: each function builds
 * the outcome, error code and text of one case. Texts are sentence case with details after a
 * colon, bounded (a tool's own message is cut at 1,024 UTF-8 bytes), and never repeat a denied
 * path, host or variable name.
 *
 * @module
 */

import type { ContentPart } from "./content.ts";
import type { ResultOverflowInfo, ToolCallOutcome, ToolErrorCode } from "./call.ts";
import type { SizedSplit } from "./result.ts";
import { formatIssues, type IssueLike, truncateText } from "../text/bounded.ts";

/** The executor's answer to one call before it is split into parts. */
export interface Answer {
  /** The call's outcome. */
  readonly outcome: ToolCallOutcome;
  /** With `outcome: "error"`. */
  readonly errorCode?: ToolErrorCode;
  /** What the model sees. */
  readonly text: string;
  /** `text` already split and measured (a success), so it is not done twice. */
  readonly split?: SizedSplit;
  /** An inline tool ignored its signal and was left running. */
  readonly abandoned?: boolean;
  /** A process tool ignored its signal and its process was killed. */
  readonly killed?: boolean;
  /** A success over the tool's `maxResultBytes`, cut or spilled (see `ToolCallResult`). */
  readonly overflow?: ResultOverflowInfo;
  /** A rich result's checked parts (`text` is their text form). */
  readonly content?: readonly ContentPart[];
}

/** Bound on a tool's own message in an answer, UTF-8 bytes. */
const MESSAGE_BYTES = 1024;

function error(errorCode: ToolErrorCode, text: string): Answer {
  return { outcome: "error", errorCode, text };
}

/** No registered tool has this name, or its `tool_id` does not match. */
export function unknownTool(name: unknown, idMismatch: boolean): Answer {
  const why = idMismatch ? " (tool_id does not match the registered definition)" : "";
  return error("unknown_tool", `Unknown tool: ${truncateText(String(name), 64)}${why}`);
}

/** The text of an `invalid_arguments` answer (also built in the tool's process). */
export function invalidArgumentsText(issues: readonly IssueLike[]): string {
  return `Invalid arguments: ${formatIssues(issues)}`;
}

/** The arguments do not match the tool's schema. */
export function invalidArguments(issues: readonly IssueLike[]): Answer {
  return error("invalid_arguments", invalidArgumentsText(issues));
}

/** The text of an `invalid_output` answer (also built in the tool's process). */
export function invalidOutputText(issues: readonly IssueLike[]): string {
  return `Invalid output: ${
    formatIssues(issues.map((issue) => ({ ...issue, path: ["output", ...issue.path] })))
  }`;
}

/** The tool's result does not match its `output` schema. */
export function invalidOutput(issues: readonly IssueLike[]): Answer {
  return error("invalid_output", invalidOutputText(issues));
}

/** An `invalid_output` text that came from a tool's process. */
export function invalidOutputFrom(text: string): Answer {
  return error("invalid_output", truncateText(text, MESSAGE_BYTES));
}

/** An `invalid_arguments` text that came from a tool's process. */
export function invalidArgumentsFrom(text: string): Answer {
  return error("invalid_arguments", truncateText(text, MESSAGE_BYTES));
}

/** An external tool's source rejected the arguments with `reason`. */
export function invalidArgumentsReason(reason: string): Answer {
  return error("invalid_arguments", truncateText(`Invalid arguments: ${reason}`, MESSAGE_BYTES));
}

/** An external tool failed with its source's own error code (`ExternalToolError`). */
export function externalFailed(code: string, message: string): Answer {
  return error(
    code,
    message.trim() === "" ? "Tool failed without a message" : truncateText(message, MESSAGE_BYTES),
  );
}

/** The tool threw (or rejected) with `message`. */
export function toolFailed(message: string): Answer {
  return error(
    "tool_failed",
    message.trim() === "" ? "Tool failed without a message" : truncateText(message, MESSAGE_BYTES),
  );
}

/** The tool's return value could not be turned into text. */
export function resultNotText(message: string): Answer {
  return error("tool_failed", truncateText(message, MESSAGE_BYTES));
}

/** A bug in the host itself (still answered). */
export function hostFailed(): Answer {
  return error("tool_failed", "Tool host failed internally");
}

/** The result text is over `result_bytes`. */
export function resultTooLarge(bytes: number, limit: number): Answer {
  return error(
    "result_too_large",
    `Result too large: ${bytes} bytes exceeds the limit of ${limit} bytes`,
  );
}

/** The result text needs more than `result_parts` parts. */
export function resultTooManyParts(bytes: number, parts: number, limit: number): Answer {
  return error(
    "result_too_large",
    `Result too large: ${bytes} bytes needs ${parts} parts, more than the limit of ${limit} parts`,
  );
}

/** The tool's process died or could not run the call (`why`, e.g. its exit). */
export function toolCrashed(why: string): Answer {
  return error("tool_crashed", truncateText(`Tool process crashed: ${why}`, MESSAGE_BYTES));
}

/** What the model sees for a denied permission: the kind, never the path, host or name. */
export function permissionDeniedText(permission: string): string {
  const what: Record<string, string> = {
    read: "read access to a path outside the declared list",
    write: "write access to a path outside the declared list",
    net: "net access to a host outside the declared list",
    env: "env access to a variable outside the declared list",
    run: "run access to a program outside the declared list",
    sys: "sys access to system information outside the declared list",
    ffi: "ffi access to a library outside the declared list",
    import: "import of a module outside the declared list",
  };
  return `Permission denied: ${what[permission] ?? "an access the tool did not declare"}`;
}

/** The tool used a permission it did not declare. */
export function permissionDenied(permission: string): Answer {
  return error("permission_denied", permissionDeniedText(permission));
}

/** Why a call was stopped before it answered. */
export type Stop =
  | { readonly kind: "cancel" }
  | { readonly kind: "deadline"; readonly ms: number }
  | { readonly kind: "timeout"; readonly ms: number };

/**
 * A call stopped by a cancel (`cancelled`) or a deadline/timeout (`timeout`); `how` says whether
 * the tool ignored its signal past `graceMs` and was abandoned or killed.
 */
export function stopped(stop: Stop, how: "abandoned" | "killed" | null, graceMs: number): Answer {
  const abandoned = how === "abandoned";
  const killed = how === "killed";
  const left = how === null
    ? ""
    : `; the tool did not stop within ${graceMs} ms of being signalled and ${
      killed ? "its process was killed" : "was abandoned"
    }`;
  if (stop.kind === "cancel") {
    return { outcome: "cancelled", text: `Tool call cancelled${left}`, abandoned, killed };
  }
  const limit = stop.kind === "deadline"
    ? `the call deadline of ${stop.ms} ms passed`
    : `the tool's timeout of ${stop.ms} ms passed`;
  return {
    outcome: "error",
    errorCode: "timeout",
    text: `Tool call timed out: ${limit}${left}`,
    abandoned,
    killed,
  };
}

/** Why a write tool called over MCP (`magi-tools mcp`) was not run. */
export type WriteNotRun =
  /** `mcp --approve deny`. */
  | { readonly kind: "deny" }
  /** `--approve ask`, and the client declared no `elicitation` (form) capability. */
  | { readonly kind: "cannot_ask" }
  /** The user answered the `elicitation/create` request without approving. */
  | { readonly kind: "declined" }
  /** The user dismissed the request (`cancel`), or the client cancelled the call. */
  | { readonly kind: "cancelled" }
  /** No answer within `ms`. */
  | { readonly kind: "expired"; readonly ms: number }
  /** The client answered the request with an error (`message`). */
  | { readonly kind: "failed"; readonly message: string }
  /** An approval rule denies it (`rule`: as `--approve` writes it). */
  | { readonly kind: "rule"; readonly rule: string };

/** A write tool called over MCP was not run; the text says why and how to allow it. */
export function writeToolNotRun(name: string, why: WriteNotRun): Answer {
  const tool = truncateText(name, 64);
  const reason: Record<WriteNotRun["kind"], string> = {
    deny: "this MCP server refuses write tools (it was started with --approve deny); " +
      "to allow them, start it with --approve allow or --approve ask",
    cannot_ask: "it needs the user's approval and this MCP client cannot be asked " +
      "(it declared no elicitation capability); to allow write tools without asking, " +
      "add --approve allow to the server's command (magi-tools mcp)",
    declined: "the user did not approve it",
    cancelled: "the approval request was cancelled",
    expired: `the user did not answer the approval request within ${
      why.kind === "expired" ? why.ms : 0
    } ms`,
    failed: `the approval request failed: ${
      why.kind === "failed" ? truncateText(why.message, MESSAGE_BYTES) : ""
    }`,
    rule: `the approval rule ${
      why.kind === "rule" ? truncateText(why.rule, 200) : ""
    } denies it (--approve or the config's approvals)`,
  };
  return error("approval_denied", `Write tool not run: ${tool}: ${reason[why.kind]}`);
}
