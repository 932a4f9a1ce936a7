/**
 * Rich results: a tool's answer as a list of parts, text, image, audio or resource link, made
 * with {@link content} and the part helpers. `mcp` sends the parts as MCP content; the
 * `client.tools` path (text only) gets each image or audio part as a file under
 * `.magi-tools/results/` and a text line naming it. Bounds count the decoded bytes.
 *
 * @example
 * ```ts
 * import { content, image, isRichResult } from "./content.ts";
 * const result = content("A red pixel:", image(new Uint8Array([137, 80, 78, 71]), "image/png"));
 * console.assert(isRichResult(result) && result.content.length === 2);
 * ```
 *
 * @module
 */

/** One part of a rich result. */
export type ContentPart =
  | { readonly type: "text"; readonly text: string }
  | { readonly type: "image"; readonly data: string; readonly mimeType: string }
  | { readonly type: "audio"; readonly data: string; readonly mimeType: string }
  | {
    readonly type: "resource_link";
    readonly uri: string;
    readonly name: string;
    readonly mimeType?: string;
    readonly description?: string;
  };

/** A tool's rich result: what {@link content} returns. */
export interface RichResult {
  /** Brand (survives a copy of this module: `Symbol.for`). */
  readonly [RICH_MARK]: true;
  /** The parts, in order. */
  readonly content: readonly ContentPart[];
}

/** Brand of {@link RichResult}. */
export const RICH_MARK: unique symbol = Symbol.for("magi-tools.content") as never;

/** At most this many parts in one result. */
export const MAX_CONTENT_PARTS = 64;

const MIME = /^[a-z]+\/[A-Za-z0-9][A-Za-z0-9.+_-]{0,126}$/;

/** An image part: `bytes` (or their base64) and a `image/…` MIME type. */
export function image(bytes: Uint8Array | string, mimeType: string): ContentPart {
  return binary("image", bytes, mimeType);
}

/** An audio part: `bytes` (or their base64) and an `audio/…` MIME type. */
export function audio(bytes: Uint8Array | string, mimeType: string): ContentPart {
  return binary("audio", bytes, mimeType);
}

/** A link to a resource the client may fetch (`uri`), with a display `name`. */
export function resourceLink(
  uri: string,
  name: string,
  options: { mimeType?: string; description?: string } = {},
): ContentPart {
  return Object.freeze({ type: "resource_link" as const, uri, name, ...options });
}

/**
 * A rich result of `parts` in order; a string is a text part. Return it from `run`.
 *
 * @throws {TypeError} for a part that is not valid (see {@link checkContent}).
 */
export function content(...parts: (ContentPart | string)[]): RichResult {
  const list = parts.map((part) => typeof part === "string" ? { type: "text", text: part } : part);
  const checked = checkContent(list);
  if (typeof checked === "string") throw new TypeError(checked);
  return Object.freeze({ [RICH_MARK]: true as const, content: Object.freeze(checked) });
}

/** Whether `value` is a {@link RichResult} (from any copy of this module). */
export function isRichResult(value: unknown): value is RichResult {
  return typeof value === "object" && value !== null &&
    (value as Record<PropertyKey, unknown>)[RICH_MARK] === true;
}

/**
 * `parts` checked as content parts (they may come from a tool's process or an MCP server), or
 * the reason they are not: a sentence naming the part's index and field.
 */
export function checkContent(parts: unknown): ContentPart[] | string {
  if (!Array.isArray(parts) || parts.length === 0 || parts.length > MAX_CONTENT_PARTS) {
    return `Tool content must be 1 to ${MAX_CONTENT_PARTS} parts`;
  }
  const out: ContentPart[] = [];
  for (const [index, part] of parts.entries()) {
    const at = `Tool content[${index}]`;
    if (typeof part !== "object" || part === null) return `${at} must be an object`;
    const p = part as Record<string, unknown>;
    switch (p["type"]) {
      case "text":
        if (typeof p["text"] !== "string") return `${at}.text must be a string`;
        out.push({ type: "text", text: p["text"].toWellFormed() });
        break;
      case "image":
      case "audio": {
        const type = p["type"];
        if (typeof p["mimeType"] !== "string" || !MIME.test(p["mimeType"])) {
          return `${at}.mimeType must be a MIME type: ${String(p["mimeType"]).slice(0, 64)}`;
        }
        if (!p["mimeType"].startsWith(`${type}/`)) {
          return `${at}.mimeType must be an ${type}/… type: ${p["mimeType"]}`;
        }
        if (typeof p["data"] !== "string" || !BASE64.test(p["data"])) {
          return `${at}.data must be base64`;
        }
        out.push({ type, data: p["data"], mimeType: p["mimeType"] });
        break;
      }
      case "resource_link":
        if (typeof p["uri"] !== "string" || !URL.canParse(p["uri"])) {
          return `${at}.uri must be an absolute URI`;
        }
        if (typeof p["name"] !== "string" || p["name"] === "") {
          return `${at}.name must be a non-empty string`;
        }
        out.push({
          type: "resource_link",
          uri: p["uri"],
          name: p["name"],
          ...(typeof p["mimeType"] === "string" ? { mimeType: p["mimeType"] } : {}),
          ...(typeof p["description"] === "string" ? { description: p["description"] } : {}),
        });
        break;
      default:
        return `${at}.type must be "text", "image", "audio" or "resource_link"`;
    }
  }
  return out;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Bytes a part counts against the result bounds: text UTF-8, binary decoded, links their JSON. */
export function partBytes(part: ContentPart): number {
  switch (part.type) {
    case "text":
      return new TextEncoder().encode(part.text).length;
    case "image":
    case "audio": {
      const padding = part.data.endsWith("==") ? 2 : part.data.endsWith("=") ? 1 : 0;
      return (part.data.length / 4) * 3 - padding;
    }
    case "resource_link":
      return new TextEncoder().encode(JSON.stringify(part)).length;
  }
}

function binary(
  type: "image" | "audio",
  bytes: Uint8Array | string,
  mimeType: string,
): ContentPart {
  const data = typeof bytes === "string" ? bytes : encodeBase64(bytes);
  return Object.freeze({ type, data, mimeType });
}

function encodeBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/** The bytes of a base64 string (checked by {@link checkContent} first). */
export function decodeBase64(data: string): Uint8Array {
  const binary = atob(data);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}
