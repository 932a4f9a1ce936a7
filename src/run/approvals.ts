/**
 * Answering `approval.requested`: by flag (`--approve allow|deny`) or by
 * asking on the terminal (`--approve ask`: stdin and stderr, or `/dev/tty`),
 * with the backend's expiry.
 *
 * @module
 */

import { waitWithin } from "../async/deadline.ts";
import type { ApprovalRequestedData } from "../protocol/schemas/mod.ts";
import { type NoTerminalReason, type Terminal, terminalText } from "../runtime/mod.ts";

/** How approvals are answered. */
export type ApproveMode = "deny" | "allow" | "ask";

/** How one approval was decided. */
export interface ApprovalDecision {
  /** Allow or deny. */
  decision: "allow" | "deny";
  /** `flag` (--approve), `user` (terminal answer) or `expiry` (no answer in time). */
  decidedBy: "flag" | "user" | "expiry";
}

/** Anything that decides approvals (the CLI's {@link ApprovalDecider}, the inspector's page). */
export interface Approver {
  /**
   * Decide one approval request. When `signal` aborts first (the run ended),
   * resolve with a deny by expiry.
   */
  decide(data: ApprovalRequestedData, signal?: AbortSignal): Promise<ApprovalDecision>;
}

/**
 * Decides approvals. With `ask`, prompts are serialized on the terminal; a
 * prompt left unanswered past `expires_in_ms` is a deny by expiry (and the
 * late answer line is discarded).
 */
export class ApprovalDecider implements Approver {
  #mode: ApproveMode;
  #terminal: Terminal | null;
  #chain: Promise<unknown> = Promise.resolve();

  /** Create a decider; `terminal` is required for `ask`. */
  constructor(mode: ApproveMode, terminal: Terminal | null) {
    if (mode === "ask" && terminal === null) {
      throw new TypeError("Approval mode ask needs a terminal");
    }
    this.#mode = mode;
    this.#terminal = terminal;
  }

  /**
   * Decide one approval request. When `signal` aborts first (the run ended),
   * the result is a deny by expiry: the backend already denied it.
   */
  decide(data: ApprovalRequestedData, signal?: AbortSignal): Promise<ApprovalDecision> {
    if (this.#mode !== "ask" || this.#terminal === null) {
      return Promise.resolve({
        decision: this.#mode === "allow" ? "allow" : "deny",
        decidedBy: "flag",
      });
    }
    const terminal = this.#terminal;
    const asked = this.#chain.then(() =>
      terminal.ask(
        `\nApprove? ${terminalText(data.summary)}\n[y/N] (expires in ${
          Math.round(data.expires_in_ms / 1000)
        }s): `,
      )
    );
    this.#chain = asked.catch(() => null);
    const answered = asked.then((line): ApprovalDecision => ({
      decision: line !== null && /^\s*y(es)?\s*$/i.test(line) ? "allow" : "deny",
      decidedBy: "user",
    }), (): ApprovalDecision => ({ decision: "deny", decidedBy: "user" }));
    // No answer before the backend's expiry (less a margin) or the run's end: deny by expiry.
    const expiryMs = data.expires_in_ms - 250;
    return waitWithin(answered, expiryMs, { signal }).then(
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
