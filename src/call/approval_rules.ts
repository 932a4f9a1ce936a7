/**
 * Approval rules: an ordered list of rules, each matching write tools by name (a glob: `*` any
 * run of characters, `?` one) and/or by source (`module`, `mcp:<server>`, `openapi:<api>`, also
 * globs), with a decision `allow`, `deny` or `ask`. The first rule that matches decides; a tool
 * no rule matches gets the policy's default.
 *
 * Written as flags (`--approve allow=file_ticket --approve ask=mcp:github --approve deny`: a bare
 * decision is the default; `DECISION=TOOL`, `DECISION=SOURCE` (a source has a `:` or is
 * `module`), `DECISION=SOURCE/TOOL`) or in `magi-tools.jsonc` (`"approvals": [{ "tool":
 * "file_ticket", "decision": "allow" }, { "decision": "deny" }]`). Flag rules are checked before
 * the config's, and a flag's default replaces the config's.
 *
 * @example
 * ```ts
 * import { decideByPolicy, parseApproveFlags } from "./approval_rules.ts";
 * const policy = parseApproveFlags(["allow=file_*", "deny"], "deny");
 * const hit = decideByPolicy(policy, "file_ticket", "module");
 * console.assert(hit.decision === "allow" && hit.rule === "allow=file_*");
 * console.assert(decideByPolicy(policy, "shell", "module").rule === "deny");
 * ```
 *
 * @module
 */

/** What a rule decides. */
export type RuleDecision = "allow" | "deny" | "ask";

/** The decisions, in the order they are listed in errors. */
export const RULE_DECISIONS: readonly RuleDecision[] = ["allow", "deny", "ask"];

/** Where a rule came from (the record's `decided_by` for a decision no person made). */
export type RuleOrigin = "flag" | "config";

/** One rule. */
export interface ApprovalRule {
  /** Tool name glob; absent: any tool. */
  readonly tool?: string;
  /** Source glob (`module`, `mcp:<server>`, `openapi:<api>`); absent: any source. */
  readonly source?: string;
  /** What it decides. */
  readonly decision: RuleDecision;
  /** Where it was written. */
  readonly origin: RuleOrigin;
}

/** An ordered rule list and the default for a tool no rule matches. */
export interface ApprovalPolicy {
  /** The rules, first match wins. */
  readonly rules: readonly ApprovalRule[];
  /** The decision for a tool no rule matches. */
  readonly fallback: RuleDecision;
  /** Where the default came from (`command`: the command's own default). */
  readonly fallbackOrigin: RuleOrigin | "command";
}

/** The decision of a policy for one tool. */
export interface PolicyDecision {
  /** What to do. */
  readonly decision: RuleDecision;
  /** The rule that decided it, as a flag would write it (`allow=file_ticket`; `deny`: default). */
  readonly rule: string;
  /** Where that rule was written. */
  readonly origin: RuleOrigin | "command";
}

/** A rule value that is not valid; `message` names the value. */
export class ApprovalRuleError extends Error {
  /** Create the error. */
  constructor(message: string) {
    super(message);
    this.name = "ApprovalRuleError";
  }
}

const TOOL_GLOB = /^[A-Za-z0-9_.*?-]{1,64}$/;
const SOURCE_GLOB = /^(?:module|(?:mcp|openapi):[^\s/]{1,128})$/;

/** Whether `text` is a valid tool-name glob. */
export function isToolGlob(text: string): boolean {
  return TOOL_GLOB.test(text);
}

/** Whether `text` is a valid source glob (`module`, `mcp:NAME`, `openapi:NAME`). */
export function isSourceGlob(text: string): boolean {
  return SOURCE_GLOB.test(text);
}

/** A rule as a flag writes it: `allow=file_ticket`, `ask=mcp:github`, `deny=module/x_*`. */
export function ruleText(rule: Pick<ApprovalRule, "tool" | "source" | "decision">): string {
  const target = rule.source === undefined
    ? rule.tool
    : rule.tool === undefined
    ? rule.source
    : `${rule.source}/${rule.tool}`;
  return target === undefined ? rule.decision : `${rule.decision}=${target}`;
}

function isDecision(text: string): text is RuleDecision {
  return (RULE_DECISIONS as readonly string[]).includes(text);
}

/** Parse one `--approve` value: a rule, or a bare decision (the default). */
export function parseApproveValue(value: string): ApprovalRule {
  const eq = value.indexOf("=");
  const decision = eq < 0 ? value : value.slice(0, eq);
  const bad = (why: string) =>
    new ApprovalRuleError(
      "Option --approve must be deny, allow or ask, or a rule DECISION=TOOL, DECISION=SOURCE or " +
        `DECISION=SOURCE/TOOL (e.g. allow=file_ticket): ${JSON.stringify(value)}: ${why}`,
    );
  if (!isDecision(decision)) return fail(bad(`${JSON.stringify(decision)} is not a decision`));
  if (eq < 0) return { decision, origin: "flag" };
  const target = value.slice(eq + 1);
  if (target === "") throw bad("no tool or source after =");
  const slash = target.lastIndexOf("/");
  if (slash >= 0) {
    const source = target.slice(0, slash);
    const tool = target.slice(slash + 1);
    if (!isSourceGlob(source)) throw bad(`${JSON.stringify(source)} is not a source`);
    if (!isToolGlob(tool)) throw bad(`${JSON.stringify(tool)} is not a tool name or glob`);
    return { decision, source, tool, origin: "flag" };
  }
  if (isSourceGlob(target)) return { decision, source: target, origin: "flag" };
  if (!isToolGlob(target)) throw bad(`${JSON.stringify(target)} is not a tool name or glob`);
  return { decision, tool: target, origin: "flag" };
}

function fail(error: Error): never {
  throw error;
}

/**
 * The policy of repeated `--approve` values: the rules in order; the last bare decision is the
 * default (`fallback` when none). `allowed` lists the decisions the command accepts (`batch` has
 * no person to ask); any other value throws {@link ApprovalRuleError} naming it.
 */
export function parseApproveFlags(
  values: readonly string[],
  fallback: RuleDecision,
  allowed: readonly RuleDecision[] = RULE_DECISIONS,
  why = "",
): ApprovalPolicy {
  const rules: ApprovalRule[] = [];
  let flagDefault: RuleDecision | undefined;
  for (const value of values) {
    const rule = parseApproveValue(value);
    if (!allowed.includes(rule.decision)) {
      throw new ApprovalRuleError(
        `Option --approve ${rule.decision} is not available${why}: ${JSON.stringify(value)}: ` +
          `use ${allowed.join(" or ")}`,
      );
    }
    if (rule.tool === undefined && rule.source === undefined) flagDefault = rule.decision;
    else rules.push(rule);
  }
  return {
    rules,
    fallback: flagDefault ?? fallback,
    fallbackOrigin: flagDefault === undefined ? "command" : "flag",
  };
}

/**
 * The flags' policy over the config's rules: the flags' rules first, then the config's; the
 * flags' default when given, else the config's, else the command's.
 */
export function withConfigRules(
  flags: ApprovalPolicy,
  config: readonly ApprovalRule[],
): ApprovalPolicy {
  if (config.length === 0) return flags;
  const configDefault = config.find((rule) => rule.tool === undefined && rule.source === undefined);
  const rules = config.filter((rule) => rule !== configDefault);
  const useConfigDefault = flags.fallbackOrigin === "command" && configDefault !== undefined;
  return {
    rules: [...flags.rules, ...rules],
    fallback: useConfigDefault ? configDefault.decision : flags.fallback,
    fallbackOrigin: useConfigDefault ? "config" : flags.fallbackOrigin,
  };
}

const globs = new Map<string, RegExp>();

/** Whether `text` matches the glob `pattern` (`*`, `?`; everything else literal). */
export function globMatches(pattern: string, text: string): boolean {
  let regex = globs.get(pattern);
  if (regex === undefined) {
    const body = pattern.replace(/[.+^${}()|[\]\\]/g, "\\$&").replaceAll("*", ".*")
      .replaceAll("?", ".");
    regex = new RegExp(`^${body}$`, "s");
    globs.set(pattern, regex);
  }
  return regex.test(text);
}

/** The source of a tool as rules name it: `module`, `mcp:<server>`, `openapi:<api>`. */
export function sourceName(source: { readonly kind: string; readonly name: string }): string {
  return source.kind === "module" ? "module" : `${source.kind}:${source.name}`;
}

/**
 * What `policy` decides for write tool `tool` of `source` (undefined: unknown, e.g. a backend's
 * own tool, which only rules without a source match).
 */
export function decideByPolicy(
  policy: ApprovalPolicy,
  tool: string | undefined,
  source: string | undefined,
): PolicyDecision {
  for (const rule of policy.rules) {
    if (rule.tool !== undefined && (tool === undefined || !globMatches(rule.tool, tool))) continue;
    if (
      rule.source !== undefined && (source === undefined || !globMatches(rule.source, source))
    ) continue;
    return { decision: rule.decision, rule: ruleText(rule), origin: rule.origin };
  }
  return {
    decision: policy.fallback,
    rule: policy.fallback,
    origin: policy.fallbackOrigin,
  };
}

/** A policy of one decision for every tool (the library's and the old `--approve MODE`). */
export function uniformPolicy(decision: RuleDecision): ApprovalPolicy {
  return { rules: [], fallback: decision, fallbackOrigin: "flag" };
}
