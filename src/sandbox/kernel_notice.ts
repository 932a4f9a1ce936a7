/**
 * The one notice that process-isolated tools run without the kernel layer (Landlock): every
 * front door says it once per host process on stderr (`run` and `batch` also write it as a
 * `host.warning` record, code {@link KERNEL_NOTICE_CODE}).
 *
 * @module
 */

import { writeStderrLine } from "../runtime/mod.ts";

/** The `host.warning` code of the notice. */
export const KERNEL_NOTICE_CODE = "kernel_sandbox_unavailable";

let said = false;

/**
 * What the notice says, for the kernel layer's `reason` (`KernelSupport.reason`).
 *
 * @example
 * ```ts
 * import { kernelNoticeText } from "./kernel_notice.ts";
 * console.assert(kernelNoticeText("the kernel has no Landlock").startsWith("kernel sandbox unavailable"));
 * ```
 */
export function kernelNoticeText(reason: string): string {
  return `kernel sandbox unavailable: ${reason}; process-isolated tools run with Deno's ` +
    "permission checks only, without the kernel layer's containment of symlinks and of the " +
    "programs they start (see docs/tools.md, Enforcement levels)";
}

/** Write the notice for `reason` on stderr, unless this process already did. */
export function announceKernelUnavailable(reason: string): void {
  if (said) return;
  said = true;
  writeStderrLine(`magi-tools: warning: ${kernelNoticeText(reason)}`);
}
