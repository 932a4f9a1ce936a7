/**
 * The `initialize` request measured against the input frame bound: what the
 * tool definitions cost ({@link measure}, with a 64-byte placeholder ID and the
 * request's capabilities, or the worst case of them), and the message naming
 * the tools that do not fit when they are over.
 *
 * @module
 */

import { requestFrame } from "../protocol/envelope.ts";
import { encodedFrameBytes } from "../protocol/framing.ts";
import type { JsonValue } from "../protocol/json.ts";
import {
  CLIENT_TOOLS_REQUIRED_CAPABILITIES,
  ID_BYTES,
  INPUT_FRAME_BYTES,
} from "../protocol/limits.ts";
import { CLIENT_TOOLS_CAPABILITY } from "../protocol/schemas/client_tools.ts";
import type { WireTool } from "./catalog.ts";
import { RegistryError } from "./registry_error.ts";

/** How much of the `initialize` input frame the definitions use. */
export interface FrameBudget {
  /** The input frame bound, bytes excluding LF. */
  readonly frameBytes: number;
  /** The whole `initialize` request, bytes excluding LF (64-byte placeholder ID). */
  readonly usedBytes: number;
  /** `frameBytes - usedBytes` (negative when over). */
  readonly remainingBytes: number;
  /** Each definition's serialized bytes, in registration order. */
  readonly perTool: readonly { name: string; file: string; bytes: number }[];
}

const PLACEHOLDER_ID = "x".repeat(ID_BYTES);
const WORST_CASE_CAPABILITIES: readonly string[] = Array.from(
  { length: CLIENT_TOOLS_REQUIRED_CAPABILITIES },
  (_, index) => `${index}`.padStart(ID_BYTES, "c"),
);

/** The `initialize` request's size with `registered`'s definitions and `capabilities`. */
export function measure(
  registered: readonly WireTool[],
  capabilities: readonly string[],
): FrameBudget {
  const frame = requestFrame(PLACEHOLDER_ID, "initialize", {
    required_capabilities: [...capabilities],
    client_tools: registered.map((entry) => entry.definition) as JsonValue[],
  });
  const usedBytes = encodedFrameBytes(frame) - 1;
  return {
    frameBytes: INPUT_FRAME_BYTES,
    usedBytes,
    remainingBytes: INPUT_FRAME_BYTES - usedBytes,
    perTool: registered.map((entry) => ({
      name: entry.name,
      file: entry.file,
      bytes: entry.definitionBytes,
    })),
  };
}

/** The capabilities to measure with: `given`, checked, or the worst case without them. */
export function checkCapabilities(given: readonly string[] | undefined): readonly string[] {
  if (given === undefined) return WORST_CASE_CAPABILITIES;
  if (!given.includes(CLIENT_TOOLS_CAPABILITY)) {
    throw new RegistryError(`Required capabilities must include ${CLIENT_TOOLS_CAPABILITY}`);
  }
  if (given.length > CLIENT_TOOLS_REQUIRED_CAPABILITIES) {
    throw new RegistryError(
      `Too many required capabilities: ${given.length} exceeds the limit of ${CLIENT_TOOLS_REQUIRED_CAPABILITIES}`,
    );
  }
  return Object.freeze([...given]);
}

/** Why `budget` is over: by how much, the tools that do not fit, the cost of each. */
export function overBudgetMessage(budget: FrameBudget): string {
  const over = -budget.remainingBytes;
  const costs = [...budget.perTool].sort((a, b) => b.bytes - a.bytes)
    .map((entry) => `${entry.name} (${entry.file}) ${entry.bytes} bytes`);
  // Tools past the bound, in load order: the ones that do not fit.
  const fixed = budget.usedBytes - budget.perTool.reduce((sum, entry) => sum + entry.bytes + 1, 0);
  let used = fixed;
  const misfits: string[] = [];
  for (const entry of budget.perTool) {
    used += entry.bytes + 1;
    if (used > budget.frameBytes) misfits.push(entry.name);
  }
  return `Tool definitions do not fit in the initialize request: ${budget.usedBytes} bytes exceeds the limit of ${budget.frameBytes} by ${over} bytes; tools that do not fit: ${
    misfits.join(", ")
  }; cost per tool, largest first: ${costs.join(", ")}`;
}
