/**
 * A tool's own stack frames: a stack trace with the host's frames (the
 * runner in the tool process, the executor in the host) cut off, so a tool
 * author sees where their tool failed and nothing of magi-tools' internals.
 *
 * @module
 */

/** URL prefix of magi-tools' own source (`src/`). */
const HOST_SOURCE = new URL("../", import.meta.url).href;

/**
 * The `at …` lines of `stack` that are the tool's: from its first frame
 * outside magi-tools' own source (`hostSource`, default this package's
 * `src/`) up to the next frame inside it, trimmed of their indent.
 *
 * @example
 * ```ts
 * import { toolFrames } from "./tool_stack.ts";
 * const stack = "Error: boom\n    at inner (file:///p/tools/t.ts:4:9)\n" +
 *   "    at runCall (file:///m/src/sandbox/runner.ts:1:1)\n    at main (file:///p/tools/t.ts:9:9)";
 * console.assert(toolFrames(stack, "file:///m/src/").join("|") === "at inner (file:///p/tools/t.ts:4:9)");
 * ```
 */
export function toolFrames(stack: string, hostSource: string = HOST_SOURCE): string[] {
  const frames: string[] = [];
  for (const line of stack.split("\n")) {
    const frame = line.trim();
    if (!frame.startsWith("at ")) continue;
    // Host frames below the tool's (the runner that called it) end the tool's part; a
    // magi-tools function the tool called (above its frames) is left out too.
    if (frame.includes(hostSource)) {
      if (frames.length > 0) break;
      continue;
    }
    frames.push(frame);
  }
  return frames;
}
