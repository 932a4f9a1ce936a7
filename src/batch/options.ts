/**
 * What `batch` runs with: the flags of a turn it shares with `run` ({@link TurnFlags}) and its
 * own (`src/cli/args/batch.ts` parses them from the command line).
 *
 * @module
 */

import type { ApprovalPolicy } from "../call/approval_rules.ts";
import type { TurnFlags } from "../run/command_options.ts";
import type { Shard } from "./shard.ts";

/** `batch` options. */
export interface BatchOptions extends TurnFlags {
  /** The input JSON Lines file. */
  input: string;
  /** `--out` output folder. */
  out: string;
  /** `--jobs`: turns at once, one backend each (default 1). */
  jobs: number;
  /** `--shard K/N`, or null for all items. */
  shard: Shard | null;
  /** `--retry-failed`: rerun items whose index entry has a non-zero exit code. */
  retryFailed: boolean;
  /** `--approve` (`deny` or `allow`; `ask` needs one terminal per turn, so not here). */
  approve: "deny" | "allow";
  /** Every `--approve` value: approval rules and the default (absent: `approve` for every tool). */
  approvals?: ApprovalPolicy;
  /** `--progress`: force the progress bar on (`always`), off (`never`) or on a terminal. */
  progress: "auto" | "always" | "never";
}
