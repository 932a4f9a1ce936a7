/**
 * An MCP `tools/call` result as the text the model reads.
 *
 * - `text` content → its text;
 * - `image`/`audio` → `[image: image/png, 1,234 bytes]` (never base64);
 * - an embedded resource → its URI, and its text when it is text, else
 *   `[resource <uri>: <mime>, <n> bytes]`;
 * - a `resource_link` → `[resource link: <name> <uri>]`;
 * - `structuredContent` with no text content → its JSON;
 * - several items are joined with a blank line.
 *
 * `isError` results are failures: {@link resultText} gives their text and
 * the caller answers `tool_failed`.
 *
 * @module
 */

/** The parts of a `CallToolResult` this mapping reads. */
export interface McpCallResult {
  readonly content?: readonly Record<string, unknown>[];
  readonly structuredContent?: Record<string, unknown>;
  readonly isError?: boolean;
  /** Legacy (protocol 2024-10-07) results: `toolResult`. */
  readonly toolResult?: unknown;
}

import { type ContentPart, RICH_MARK, type RichResult } from "../tool/content.ts";

/**
 * The model-visible text of `result`.
 *
 * @example
 * ```ts
 * import { resultText } from "./results.ts";
 * const text = resultText({ content: [{ type: "image", mimeType: "image/png", data: "AAAA" }] });
 * console.assert(text === "[image: image/png, 3 bytes]");
 * ```
 */
export function resultText(result: McpCallResult): string {
  const content = result.content ?? [];
  const parts = content.map(itemText);
  const hasText = content.some((item) => item["type"] === "text");
  if (!hasText && result.structuredContent !== undefined) {
    parts.unshift(JSON.stringify(result.structuredContent));
  }
  if (content.length === 0 && result.structuredContent === undefined && "toolResult" in result) {
    parts.push(
      typeof result.toolResult === "string" ? result.toolResult : JSON.stringify(result.toolResult),
    );
  }
  return parts.join("\n\n");
}

/**
 * `result` as a rich result (`content.ts`) when it holds an image, audio or resource link, so
 * they pass through without being flattened to text: text items as text, images, audio and
 * links as they are, anything else as {@link resultText} writes it. Null for a text-only result.
 */
export function richResultOf(result: McpCallResult): RichResult | null {
  const content = result.content ?? [];
  const rich = content.some((item) =>
    item["type"] === "image" || item["type"] === "audio" || item["type"] === "resource_link"
  );
  if (!rich) return null;
  const parts = content.map((item) => {
    switch (item["type"]) {
      case "image":
      case "audio":
        return { type: item["type"], data: item["data"], mimeType: item["mimeType"] };
      case "resource_link":
        return {
          type: "resource_link",
          uri: item["uri"],
          name: item["name"],
          ...(typeof item["mimeType"] === "string" ? { mimeType: item["mimeType"] } : {}),
          ...(typeof item["description"] === "string" ? { description: item["description"] } : {}),
        };
      default:
        return { type: "text", text: itemText(item) };
    }
  });
  // Checked (and bounded) by the executor like a module tool's.
  return { [RICH_MARK]: true, content: parts as unknown as ContentPart[] };
}

function itemText(item: Record<string, unknown>): string {
  switch (item["type"]) {
    case "text":
      return String(item["text"] ?? "");
    case "image":
    case "audio":
      return `[${item["type"]}: ${item["mimeType"] ?? "unknown type"}, ${
        sizeText(base64Bytes(item["data"]))
      }]`;
    case "resource": {
      const resource = (item["resource"] ?? {}) as Record<string, unknown>;
      const uri = String(resource["uri"] ?? "");
      if (typeof resource["text"] === "string") return `[resource ${uri}]\n${resource["text"]}`;
      return `[resource ${uri}: ${resource["mimeType"] ?? "binary"}, ${
        sizeText(base64Bytes(resource["blob"]))
      }]`;
    }
    case "resource_link":
      return `[resource link: ${item["name"] ?? ""} ${item["uri"] ?? ""}]`;
    default:
      return `[${String(item["type"])} content]`;
  }
}

/** Decoded size of a base64 string, bytes. */
export function base64Bytes(data: unknown): number {
  if (typeof data !== "string") return 0;
  const clean = data.replace(/\s/g, "");
  const padding = clean.endsWith("==") ? 2 : clean.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor(clean.length * 3 / 4) - padding);
}

function sizeText(bytes: number): string {
  return `${bytes.toLocaleString("en-US")} bytes`;
}
