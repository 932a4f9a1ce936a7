/**
 * Answering `approval.requested`: by flag (`--approve allow|deny`) or by
 * asking on the terminal (`--approve ask`: stdin and stderr, or `/dev/tty`),
 * with the backend's expiry.
 *
 * With `ask` the person decides each write tool call when it arrives, with the
 * tool and every argument in front of them ({@link ApprovalDecider.decideCall},
 * `call/approval.ts`): the backend's `approval.requested` carries only its
 * summary. So an approval whose summary is exactly `Allow client tool NAME`, for
 * a client tool NAME of this host, is answered allow by the host (`decided_by:
 * "host"`): the informed question follows at call time. Any other approval (a
 * backend's own tool, another wording) is put to the person with its summary,
 * as before, and a client tool call it lets through is asked about again.
 * {@link callApprover} is the executor's side of that: the current turn's approver decides each
 * write call, recorded as an `approval` record.
 *
 * @module
 */

import { waitWithin } from "../async/deadline.ts";
import type { ApprovalRequestedData } from "../protocol/schemas/mod.ts";
import {
  argumentViewText,
  type CallApproval,
  type CallApprover,
  type CallVerdict,
} from "../call/approval.ts";
import type { RecordSink } from "../call/records.ts";
import type { CallHooks } from "../call/hooks.ts";
import { type NoTerminalReason, type Terminal, terminalText } from "../runtime/mod.ts";
import {
  type ApprovalPolicy,
  decideByPolicy,
  type PolicyDecision,
  uniformPolicy,
} from "../call/approval_rules.ts";

/** How approvals are answered. */
export type ApproveMode = "deny" | "allow" | "ask";

/** Whether `policy` can put a call to a person (a rule or the default says `ask`). */
export function policyAsks(policy: ApprovalPolicy): boolean {
  return policy.fallback === "ask" || policy.rules.some((rule) => rule.decision === "ask");
}

/** How one approval was decided. */
export interface ApprovalDecision {
  /** Allow or deny. */
  decision: "allow" | "deny";
  /**
   * `flag` (--approve), `config` (a rule of the config's `approvals`), `user` (the person's
   * answer), `expiry` (no answer in time) or `host` (an approval of this host's own client tool,
   * allowed because the person or the approval rules decide at call time).
   */
  decidedBy: "flag" | "config" | "user" | "expiry" | "host";
  /** The approval rule that decided it (`allow=file_ticket`; a bare decision: the default). */
  rule?: string;
}

/** What {@link Approver.decide} knows of the host. */
export interface ApprovalContext {
  /** The names of this host's client tools (the backend asks approval for its write tools). */
  readonly clientTools: ReadonlySet<string>;
}

/** The summary of the backend's approval of client tool NAME (the reference backend's). */
const CLIENT_TOOL_SUMMARY = /^Allow client tool ([A-Za-z0-9_-]{1,64})$/;

/**
 * The client tool of this host that `summary` asks about, or null: only a summary of exactly
 * the form `Allow client tool NAME` with NAME one of `clientTools` (the backend asks approval for
 * a client tool only when it is a write tool).
 *
 * @example
 * ```ts
 * import { clientToolOf } from "./approvals.ts";
 * const tools = new Set(["write_note"]);
 * console.assert(clientToolOf("Allow client tool write_note", tools) === "write_note");
 * console.assert(clientToolOf("Run shell: write_note", tools) === null);
 * ```
 */
export function clientToolOf(summary: string, clientTools: ReadonlySet<string>): string | null {
  const name = CLIENT_TOOL_SUMMARY.exec(summary)?.[1];
  return name !== undefined && clientTools.has(name) ? name : null;
}

/** Anything that decides approvals (the CLI's {@link ApprovalDecider}, the inspector's page). */
export interface Approver {
  /**
   * Decide one approval request. When `signal` aborts first (the run ended),
   * resolve with a deny by expiry.
   */
  decide(
    data: ApprovalRequestedData,
    signal?: AbortSignal,
    context?: ApprovalContext,
  ): Promise<ApprovalDecision>;
  /** Whether write tool calls are put to the person when they arrive ({@link decideCall}). */
  asksAtCall?(): boolean;
  /**
   * Decide one write tool call before it runs, shown with its validated arguments. `signal`
   * fires when the call is cancelled or its deadline passes.
   */
  decideCall?(request: CallApproval, signal: AbortSignal): Promise<ApprovalDecision>;
  /** Hooks around each tool call of the turn (`call/hooks.ts`; `runOneTurn`'s). */
  readonly callHooks?: CallHooks;
}

/** The approver of the current turn, and the backend's `approval_expiry_ms`. */
export interface TurnApprovals {
  /** The current turn's approver (null: none). */
  readonly turn: () => Approver | null;
  /** The backend's approval expiry, ms. */
  readonly expiryMs: number;
}

/**
 * The executor's {@link CallApprover}: the current turn's approver decides (when it asks at
 * call time), and each decision is an `approval` record with the call's ID, handed to `emit`.
 */
export function callApprover(approvals: TurnApprovals, emit: RecordSink): CallApprover {
  const current = approvals.turn;
  return {
    asks: () => current()?.asksAtCall?.() === true,
    async decide(request, signal): Promise<CallVerdict> {
      // The backend's approval expiry, or the call's deadline when that comes first.
      const expiresInMs = Math.min(approvals.expiryMs, request.expiresInMs ?? Infinity);
      const asked = { ...request, expiresInMs };
      const decided = await current()?.decideCall?.(asked, signal) ??
        { decision: "allow" as const, decidedBy: "flag" as const };
      emit({
        type: "approval",
        run_id: request.runId,
        call_id: request.callId,
        summary: `Run write tool ${request.name} with the arguments shown`,
        decision: decided.decision,
        decided_by: decided.decidedBy,
        ...(decided.rule === undefined ? {} : { rule: decided.rule }),
        recorded: true,
      });
      if (decided.decision === "allow") return { allow: true };
      return {
        allow: false,
        why: decided.decidedBy === "expiry"
          ? { kind: "expired", ms: expiresInMs }
          : decided.decidedBy !== "user" && decided.rule !== undefined
          ? { kind: "rule", rule: decided.rule }
          : { kind: "declined" },
      };
    },
  };
}

/**
 * Decides approvals. With `ask`, prompts are serialized on the terminal; a
 * prompt left unanswered past `expires_in_ms` is a deny by expiry (and the
 * late answer line is discarded).
 */
export class ApprovalDecider implements Approver {
  #mode: ApproveMode;
  #policy: ApprovalPolicy;
  #terminal: Terminal | null;
  #chain: Promise<unknown> = Promise.resolve();

  /**
   * Create a decider of one mode for every write tool, or of approval rules
   * (`call/approval_rules.ts`, decided per tool at call time); `terminal` is required when
   * anything says `ask`.
   */
  constructor(mode: ApproveMode | ApprovalPolicy, terminal: Terminal | null) {
    const policy = typeof mode === "string" ? uniformPolicy(mode) : mode;
    if (policyAsks(policy) && terminal === null) {
      throw new TypeError("Approval mode ask needs a terminal");
    }
    this.#policy = policy;
    this.#mode = policy.fallback;
    this.#terminal = terminal;
  }

  /** With rules: the decision of the rules for a call no person decides. */
  #byRule(decided: PolicyDecision): ApprovalDecision {
    return {
      decision: decided.decision === "allow" ? "allow" : "deny",
      decidedBy: decided.origin === "config" ? "config" : "flag",
      rule: decided.rule,
    };
  }

  /**
   * Decide one approval request. When `signal` aborts first (the run ended),
   * the result is a deny by expiry: the backend already denied it.
   */
  decide(
    data: ApprovalRequestedData,
    signal?: AbortSignal,
    context?: ApprovalContext,
  ): Promise<ApprovalDecision> {
    const rules = this.#policy.rules.length > 0;
    if (
      (rules || this.asksAtCall()) &&
      clientToolOf(data.summary, context?.clientTools ?? new Set()) !== null
    ) {
      // The rules or the person decide when the call arrives (with its source and arguments).
      return Promise.resolve({ decision: "allow", decidedBy: "host" });
    }
    if (rules && this.#mode !== "ask") {
      return Promise.resolve(this.#byRule(decideByPolicy(this.#policy, undefined, undefined)));
    }
    if (this.#mode !== "ask" || this.#terminal === null) {
      return Promise.resolve({
        decision: this.#mode === "allow" ? "allow" : "deny",
        decidedBy: "flag",
      });
    }
    // No answer before the backend's expiry (less a margin) or the run's end: deny by expiry.
    return this.#ask(
      `\nApprove? ${terminalText(data.summary)}\n[y/N] (expires in ${
        Math.round(data.expires_in_ms / 1000)
      }s): `,
      data.expires_in_ms - 250,
      signal,
    );
  }

  /**
   * With `ask`: the person decides `request` on the terminal, shown the tool and every
   * argument (each line through `terminalText`); no answer before `signal` (the call's cancel
   * or deadline) is a deny by expiry. With `allow`/`deny` (no question at call time: the
   * flag answered the backend's approval) the flag's decision.
   */
  decideCall(request: CallApproval, signal: AbortSignal): Promise<ApprovalDecision> {
    const rules = this.#policy.rules.length > 0;
    const decided = rules ? decideByPolicy(this.#policy, request.name, request.source) : null;
    if (decided !== null && decided.decision !== "ask") {
      return Promise.resolve(this.#byRule(decided));
    }
    if (decided === null && !this.asksAtCall()) {
      return Promise.resolve({
        decision: this.#mode === "allow" ? "allow" : "deny",
        decidedBy: "flag",
      });
    }
    const rule = decided === null ? {} : { rule: decided.rule };
    const lines = argumentViewText(request.view).map((line) => `  ${terminalText(line)}`);
    const expiry = request.expiresInMs;
    return this.#ask(
      `\nApprove write tool ${terminalText(request.name)}? It runs with these arguments:\n${
        lines.join("\n")
      }\n[y/N]${expiry === undefined ? "" : ` (expires in ${Math.round(expiry / 1000)}s)`}: `,
      expiry ?? null,
      signal,
    ).then((answer) => ({ ...answer, ...rule }));
  }

  /**
   * True with `ask`: every write tool call is put to the person when it arrives; with approval
   * rules: every write tool call is decided when it arrives, by its rule.
   */
  asksAtCall(): boolean {
    if (this.#policy.rules.length > 0) return this.#terminal !== null || !policyAsks(this.#policy);
    return this.#mode === "ask" && this.#terminal !== null;
  }

  #ask(question: string, expiryMs: number | null, signal?: AbortSignal): Promise<ApprovalDecision> {
    const terminal = this.#terminal!;
    const asked = this.#chain.then(() => terminal.ask(question));
    this.#chain = asked.catch(() => null);
    const answered = asked.then((line): ApprovalDecision => ({
      decision: line !== null && /^\s*y(es)?\s*$/i.test(line) ? "allow" : "deny",
      decidedBy: "user",
    }), (): ApprovalDecision => ({ decision: "deny", decidedBy: "user" }));
    return waitWithin(answered, expiryMs ?? Infinity, { signal }).then(
      (decided): ApprovalDecision => decided ?? { decision: "deny", decidedBy: "expiry" },
    );
  }
}

/** Which of the standard streams are terminals, for {@link noTerminalMessage}. */
export interface StreamsSeen {
  /** The prompt is read from stdin (no PROMPT argument, stdin not a terminal). */
  readonly promptOnStdin: boolean;
  /** stdin is a terminal. */
  readonly stdin: boolean;
  /** stderr is a terminal. */
  readonly stderr: boolean;
}

const BY_FLAG = "answer by flag with --approve allow or --approve deny";

/**
 * Why `--approve ask` cannot prompt, and what to run instead. It asks on
 * stdin and stderr when both are terminals; else on `/dev/tty`, which Deno
 * opens only with `--allow-all`.
 *
 * @example
 * ```ts
 * import { noTerminalMessage } from "./approvals.ts";
 * const text = noTerminalMessage("none", { promptOnStdin: false, stdin: false, stderr: false });
 * console.assert(text.startsWith("Option --approve ask needs a terminal"));
 * ```
 */
export function noTerminalMessage(reason: NoTerminalReason, seen: StreamsSeen): string {
  if (reason === "none") {
    return "Option --approve ask needs a terminal: stdin and stderr are not both terminals and " +
      `there is no controlling terminal (/dev/tty): ${BY_FLAG}`;
  }
  const why = seen.promptOnStdin
    ? "stdin carries the prompt"
    : !seen.stdin
    ? "stdin is not a terminal"
    : "stderr is not a terminal (the question is written there)";
  const instead = seen.promptOnStdin
    ? "pass the prompt as an argument, with stdin and stderr on the terminal"
    : "run it with stdin and stderr on the terminal";
  return `Option --approve ask cannot prompt: ${why}, and Deno opens /dev/tty only with ` +
    `--allow-all: ${instead}, or ${BY_FLAG}`;
}
