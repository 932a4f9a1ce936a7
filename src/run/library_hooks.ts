/**
 * `runOneTurn`'s hooks (`one_turn.ts`): `onApproval` decides write tool calls with their
 * validated arguments (the executor's call-time approval, as `run --approve ask` asks a person),
 * approval rules as `--approve` writes them, and the call hooks (`call/hooks.ts`).
 *
 * @module
 */

import type { ApprovalRequestedData } from "../protocol/schemas/mod.ts";
import type { CallApproval } from "../call/approval.ts";
import type { CallHooks } from "../call/hooks.ts";
import {
  type ApprovalPolicy,
  ApprovalRuleError,
  decideByPolicy,
  parseApproveFlags,
} from "../call/approval_rules.ts";
import {
  type ApprovalContext,
  type ApprovalDecider,
  type ApprovalDecision,
  type Approver,
  clientToolOf,
} from "./approvals.ts";

/** A write tool call put to `onApproval`. */
export interface ApprovalCall {
  /** The call's ID. */
  readonly callId: string;
  /** The run it belongs to. */
  readonly runId: string;
  /** The tool. */
  readonly name: string;
  /** Its source as approval rules name it: `module`, `mcp:<server>`, `openapi:<api>`. */
  readonly source?: string;
  /** The arguments, validated against the tool's schema. */
  readonly arguments: Readonly<Record<string, unknown>>;
}

/** `runOneTurn`'s `onApproval`: allow or deny one write tool call. */
export type OnApproval = (
  call: ApprovalCall,
  signal: AbortSignal,
) => "allow" | "deny" | Promise<"allow" | "deny">;

/** A hook of `runOneTurn` failed; `hook` names it, `cause` is what it threw. */
export class HookError extends Error {
  /** Which hook. */
  readonly hook: "onRecord";
  /** Create the error. */
  constructor(hook: "onRecord", cause: unknown) {
    super(
      `The ${hook} hook failed: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
    this.name = "HookError";
    this.hook = hook;
  }
}

/** An invalid `approvals` rule of `runOneTurn`; `message` names the value. */
export { ApprovalRuleError };

/** The approval policy of `runOneTurn`'s options (`approve`, `approvals`, `onApproval`). */
export function libraryPolicy(
  approve: "deny" | "allow" | undefined,
  approvals: readonly string[] | undefined,
  asks: boolean,
): ApprovalPolicy {
  const fallback = asks ? "ask" : approve ?? "deny";
  const why = " without onApproval (nobody to ask)";
  return parseApproveFlags(approvals ?? [], fallback, asks ? undefined : ["allow", "deny"], why);
}

/**
 * The turn's approver with `onApproval`: every write tool call the rules do not decide is put
 * to it, with its validated arguments; a throw or any other answer than `allow` is a deny.
 */
export class CallbackApprover implements Approver {
  readonly #policy: ApprovalPolicy;
  readonly #onApproval: OnApproval;
  readonly #base: ApprovalDecider;
  /** The turn's call hooks. */
  readonly callHooks?: CallHooks;

  /** `base` decides what the callback is not asked about (a backend's own approvals). */
  constructor(
    policy: ApprovalPolicy,
    onApproval: OnApproval,
    base: ApprovalDecider,
    hooks: CallHooks | undefined,
  ) {
    this.#policy = policy;
    this.#onApproval = onApproval;
    this.#base = base;
    if (hooks !== undefined) this.callHooks = hooks;
  }

  /** The backend's approval of one of the host's client tools: decided at call time. */
  decide(
    data: ApprovalRequestedData,
    signal?: AbortSignal,
    context?: ApprovalContext,
  ): Promise<ApprovalDecision> {
    if (clientToolOf(data.summary, context?.clientTools ?? new Set()) !== null) {
      return Promise.resolve({ decision: "allow", decidedBy: "host" });
    }
    return this.#base.decide(data, signal, context);
  }

  /** Every write tool call is decided when it arrives. */
  asksAtCall(): boolean {
    return true;
  }

  /** The rule's decision, or the callback's. */
  async decideCall(request: CallApproval, signal: AbortSignal): Promise<ApprovalDecision> {
    const decided = decideByPolicy(this.#policy, request.name, request.source);
    const rule = this.#policy.rules.length > 0 ? { rule: decided.rule } : {};
    if (decided.decision !== "ask") {
      return { decision: decided.decision, decidedBy: "flag", ...rule };
    }
    let answer: unknown;
    try {
      answer = await this.#onApproval({
        callId: request.callId,
        runId: request.runId,
        name: request.name,
        ...(request.source === undefined ? {} : { source: request.source }),
        arguments: request.arguments,
      }, signal);
    } catch (error) {
      console.error(
        `magi-tools: onApproval failed on ${request.name} (denied): ${
          error instanceof Error ? error.message : String(error)
        }`,
      );
      answer = "deny";
    }
    if (signal.aborted) return { decision: "deny", decidedBy: "expiry", ...rule };
    return { decision: answer === "allow" ? "allow" : "deny", decidedBy: "user", ...rule };
  }
}

/** `approver` with the turn's call hooks. */
export function withCallHooks(approver: ApprovalDecider, hooks: CallHooks): Approver {
  return {
    decide: (data, signal, context) => approver.decide(data, signal, context),
    asksAtCall: () => approver.asksAtCall(),
    decideCall: (request, signal) => approver.decideCall(request, signal),
    callHooks: hooks,
  };
}
