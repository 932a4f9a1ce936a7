/**
 * The describe child's main module (internal): started by the host as
 * `deno run --no-prompt --preload=describe_setup.ts --preload=<module>…
 * describe.ts` with no `--allow-*` flag, so tool modules' top-level code
 * runs with no permission at all. For each module it reports the tool's
 * description ({@link describeTool}) or why the module cannot be loaded, as
 * one frame on stdout.
 *
 * @module
 */

import { isTool } from "../tool/define.ts";
import { importFailureReason, NO_DEFAULT_EXPORT, NOT_A_TOOL } from "../tool/load_reasons.ts";
import { deniedPermission } from "./channel.ts";
import { describeTool, type ToolDescription } from "./description.ts";
import { takeChannel } from "./describe_setup.ts";

/** One module's outcome in the describe child's answer. */
export type DescribeResult =
  | { readonly ok: true; readonly tool: ToolDescription }
  | { readonly ok: false; readonly reason: string; readonly permission?: string };

/** The describe child's answer. */
export interface DescribeAnswer {
  readonly t: "described";
  readonly results: readonly DescribeResult[];
}

async function describeModule(url: string): Promise<DescribeResult> {
  let module: Record<string, unknown>;
  try {
    module = await import(url);
  } catch (error) {
    const permission = deniedPermission(error);
    return {
      ok: false,
      reason: importFailureReason(error),
      ...(permission === undefined ? {} : { permission }),
    };
  }
  if (!("default" in module)) return { ok: false, reason: NO_DEFAULT_EXPORT };
  if (!isTool(module.default)) return { ok: false, reason: NOT_A_TOOL };
  return { ok: true, tool: describeTool(module.default) };
}

const channel = takeChannel();
if (channel === undefined) {
  // A tool module took the channel: report nothing (the host then fails the load).
  Deno.exit(4);
}
const results: DescribeResult[] = [];
for (const url of channel.init.urls) results.push(await describeModule(url));
channel.send({ t: "described", results } satisfies DescribeAnswer);
Deno.exit(0);
