/**
 * A request's frame bytes, and the checks of a `client.tool.result` part before it gets a request
 * ID. A part the host's call path marked as plain ASCII ({@link markPlainAscii}: the result split
 * found no control character in its ASCII text) of at least {@link AROUND_MIN_CHARS} characters is
 * written around its text, byte for byte what serializing the frame gives, without the JSON
 * escaping pass over the text (bench/notes.md, "Result part frames around their text").
 *
 * @module
 */

import { encodeFrame, encodeFrameWithText } from "../protocol/framing.ts";
import { requestFrame } from "../protocol/envelope.ts";
import type { JsonObject } from "../protocol/json.ts";
import { INPUT_FRAME_BYTES } from "../protocol/limits.ts";
import type { ClientToolResultParams } from "../protocol/schemas/mod.ts";
import type { ClientToolsLimitsObject } from "../protocol/schemas/client_tools.ts";
import { checkAdvertisedResultPart } from "./_tool_limits.ts";

/** The mark {@link markPlainAscii} sets (a symbol: `JSON.stringify` and the public API skip it). */
const PLAIN_ASCII: unique symbol = Symbol("plainAscii");

/** Parts shorter than this are serialized whole: writing around them saves less than it costs. */
export const AROUND_MIN_CHARS = 1024;

type Marked = { [PLAIN_ASCII]?: true };

/**
 * Mark `params` as a part whose `text` is ASCII without C0 control characters, as the result
 * split found it (`plainAscii` of a `ToolCallResult`); only for what the host built itself. The
 * frame is then written around the text when the text is long enough and holds no `"` or `\`
 * (checked here); a mark on text that is not ASCII is noticed, and the part serialized. Text
 * with a control character must not be marked: the frame would carry it raw, which makes it
 * invalid JSON that the backend rejects.
 */
export function markPlainAscii(params: ClientToolResultParams): void {
  if (params.text.length >= AROUND_MIN_CHARS) (params as Marked)[PLAIN_ASCII] = true;
}

/**
 * Why the `method`'s `params` break the backend's advertised `client.tools` limits (see
 * `checkAdvertisedResultPart`), or null: only `client.tool.result` has any, once `limits` are
 * known. A marked part's size is its length (checked as ASCII when it is encoded).
 */
export function resultPartFault(
  method: string,
  params: unknown,
  limits: ClientToolsLimitsObject | null,
): RangeError | null {
  if (method !== "client.tool.result" || limits === null) return null;
  const part = params as ClientToolResultParams;
  return checkAdvertisedResultPart(part, limits, (part as Marked)[PLAIN_ASCII] === true);
}

/**
 * The request frame of `method` with ID `id` and `params`, as bytes with LF. Throws
 * `FrameTooLargeError` when it exceeds the input frame bound, and, for a marked part found not
 * to be ASCII, the `RangeError` of a part over the advertised `limits`. A part written around its
 * text takes its bytes from `allocate` when given.
 */
export function encodeRequest(
  id: string,
  method: string,
  params: JsonObject,
  limits: ClientToolsLimitsObject | null,
  allocate?: (size: number) => Uint8Array,
): Uint8Array {
  if ((params as Marked)[PLAIN_ASCII] === true && typeof params.text === "string") {
    const text = params.text;
    const around = encodeFrameWithText(
      requestFrame(id, method, { ...params, text: "" }),
      text,
      INPUT_FRAME_BYTES + 1,
      allocate,
    );
    if (around !== null) return around;
    // Not as marked (or too large): sized and serialized as any other part.
    const fault = limits === null ? null : checkAdvertisedResultPart({ part: 0, text }, limits);
    if (fault !== null) throw fault;
  }
  return encodeFrame(requestFrame(id, method, params), INPUT_FRAME_BYTES + 1);
}
