/**
 * What an accepted initialization advertises: the sixteen base capabilities, then
 * `tool.cards` and `client.tools` when negotiated, with their descriptors.
 *
 * @module
 */

import { BASE_CAPABILITIES } from "../../protocol/schemas/mod.ts";
import { toolCardsDescriptor } from "../run/cards.ts";
import { clientToolsDescriptor, type RegisteredTool } from "../client_tools/definitions.ts";

/** Capabilities this backend can admit in `required_capabilities`. */
export const ADMISSIBLE: ReadonlySet<string> = new Set<string>([
  ...BASE_CAPABILITIES,
  "tool.cards",
  "client.tools",
]);

/** The advertised capabilities and descriptors for `required` (and registered `tools`). */
export function advertised(
  required: readonly string[],
  tools: readonly RegisteredTool[],
): { capabilities: string[]; descriptors: Record<string, unknown> } {
  const capabilities: string[] = [...BASE_CAPABILITIES];
  const descriptors: Record<string, unknown> = {};
  if (required.includes("tool.cards")) {
    capabilities.push("tool.cards");
    descriptors["tool.cards"] = toolCardsDescriptor();
  }
  if (required.includes("client.tools")) {
    capabilities.push("client.tools");
    descriptors["client.tools"] = clientToolsDescriptor(tools);
  }
  return { capabilities, descriptors };
}
