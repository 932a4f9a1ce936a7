/**
 * Raw request text builders for byte-level tests.
 *
 * @module
 */

import { PROTOCOL, VERSION } from "../../src/protocol/limits.ts";

/** The JSON text of a request envelope (no LF). */
export function envelope(id: unknown, method: string, params: unknown): string {
  return JSON.stringify({ protocol: PROTOCOL, version: VERSION, id, method, params });
}

/** A request envelope as one LF-terminated frame. */
export function frame(id: unknown, method: string, params: unknown): string {
  return `${envelope(id, method, params)}\n`;
}

/**
 * An `initialize` request (with an unknown `pad` param, so it is answered with
 * `invalid_params`) padded to exactly `bytes` bytes, LF excluded.
 */
export function paddedFrame(id: string, bytes: number): string {
  const head =
    `{"protocol":"${PROTOCOL}","version":${VERSION},"id":"${id}","method":"initialize",` +
    `"params":{"required_capabilities":["status"],"pad":"`;
  const tail = `"}}`;
  const pad = bytes - head.length - tail.length;
  if (pad < 0) throw new RangeError(`Frame cannot be that small: ${bytes}`);
  return `${head}${"x".repeat(pad)}${tail}`;
}
