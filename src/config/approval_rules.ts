/**
 * The `approvals` section of `magi-tools.jsonc`: approval rules for write tools
 * (`call/approval_rules.ts`), in order, first match wins:
 *
 * ```jsonc
 * "approvals": [
 *   { "tool": "file_ticket", "decision": "allow" },
 *   { "source": "mcp:github", "decision": "ask" },
 *   { "decision": "deny" } // the default: no tool or source, last
 * ]
 * ```
 *
 * A rule that allows something is part of what `trust` approves (`needs.ts`).
 *
 * @example
 * ```ts
 * import { parseApprovals } from "./approval_rules.ts";
 * const rules = parseApprovals([{ tool: "file_*", decision: "allow" }, { decision: "deny" }], {
 *   file: "magi-tools.jsonc",
 *   path: "approvals",
 * });
 * console.assert(rules.length === 2 && rules[0]?.tool === "file_*");
 * ```
 *
 * @module
 */

import { type At, child, fail, isObject, knownKeys } from "./_check.ts";
import {
  type ApprovalRule,
  isSourceGlob,
  isToolGlob,
  RULE_DECISIONS,
  type RuleDecision,
} from "../call/approval_rules.ts";

/** Parse the `approvals` array; an error names the entry and key. */
export function parseApprovals(value: unknown, at: At): ApprovalRule[] {
  if (!Array.isArray(value)) throw fail(at, "must be an array of rules");
  const rules: ApprovalRule[] = [];
  value.forEach((entry, index) => {
    const here = child(at, index);
    if (!isObject(entry)) throw fail(here, "must be an object");
    knownKeys(entry, ["tool", "source", "decision"], here);
    const decision = entry["decision"];
    if (typeof decision !== "string" || !(RULE_DECISIONS as string[]).includes(decision)) {
      throw fail(child(here, "decision"), "must be allow, deny or ask");
    }
    const tool = entry["tool"];
    if (tool !== undefined && (typeof tool !== "string" || !isToolGlob(tool))) {
      throw fail(child(here, "tool"), "must be a tool name or glob (letters, digits, _ - . * ?)");
    }
    const source = entry["source"];
    if (source !== undefined && (typeof source !== "string" || !isSourceGlob(source))) {
      throw fail(child(here, "source"), "must be module, mcp:<server> or openapi:<api>");
    }
    if (tool === undefined && source === undefined && index !== value.length - 1) {
      throw fail(here, "is the default (no tool or source) and must be the last rule");
    }
    rules.push({
      decision: decision as RuleDecision,
      ...(tool === undefined ? {} : { tool }),
      ...(source === undefined ? {} : { source }),
      origin: "config",
    });
  });
  return rules;
}
