/**
 * Whether a text is ASCII, and which characters in it JSON escapes, in one pass over its bytes.
 *
 * The text is UTF-8 encoded in chunks into the memory of a small WebAssembly module, which tells
 * whether it is ASCII (each unit took one byte), and the module then looks at 64 bytes a step
 * with SIMD compares for C0 controls and for `"` and `\\`. A large tool result is looked at this
 * way once per part before its frame is written around its text; the regular expression
 * `/[\u0000-\u001f]/` it replaced took 0.4–0.7 ms a MiB, this about 0.15 (bench/notes.md, "The
 * result scan in WebAssembly"). Where WebAssembly cannot be instantiated (a runtime started
 * without it), the same answer comes from regular expressions.
 *
 * The module's source, in the WebAssembly text format (`tests/text/ascii_scan_test.ts` builds it
 * with `wabt` and checks that it gives {@link SCAN_WASM} byte for byte):
 *
 * ```wat
 * (module
 *   (memory (export "memory") 2)
 *   ;; flags(len): bit 0 when a byte of memory[0, len) is below 0x20, bit 1 when one is `"` or `\`.
 *   ;; len is a multiple of 64 (the caller pads with spaces).
 *   (func (export "flags") (param $len i32) (result i32)
 *     (local $i i32) (local $min v128) (local $esc v128)
 *     (local $a v128) (local $b v128) (local $c v128) (local $d v128)
 *     (local.set $min (v128.const i8x16 255 255 255 255 255 255 255 255 255 255 255 255 255 255 255 255))
 *     (block $done
 *       (loop $next
 *         (br_if $done (i32.ge_u (local.get $i) (local.get $len)))
 *         (local.set $a (v128.load offset=0 (local.get $i)))
 *         (local.set $b (v128.load offset=16 (local.get $i)))
 *         (local.set $c (v128.load offset=32 (local.get $i)))
 *         (local.set $d (v128.load offset=48 (local.get $i)))
 *         (local.set $min (i8x16.min_u (local.get $min)
 *           (i8x16.min_u (i8x16.min_u (local.get $a) (local.get $b))
 *                        (i8x16.min_u (local.get $c) (local.get $d)))))
 *         (local.set $esc (v128.or (local.get $esc)
 *           (v128.or
 *             (v128.or
 *               (v128.or (i8x16.eq (local.get $a) (v128.const i8x16 34 34 34 34 34 34 34 34 34 34 34 34 34 34 34 34))
 *                        (i8x16.eq (local.get $a) (v128.const i8x16 92 92 92 92 92 92 92 92 92 92 92 92 92 92 92 92)))
 *               (v128.or (i8x16.eq (local.get $b) (v128.const i8x16 34 34 34 34 34 34 34 34 34 34 34 34 34 34 34 34))
 *                        (i8x16.eq (local.get $b) (v128.const i8x16 92 92 92 92 92 92 92 92 92 92 92 92 92 92 92 92))))
 *             (v128.or
 *               (v128.or (i8x16.eq (local.get $c) (v128.const i8x16 34 34 34 34 34 34 34 34 34 34 34 34 34 34 34 34))
 *                        (i8x16.eq (local.get $c) (v128.const i8x16 92 92 92 92 92 92 92 92 92 92 92 92 92 92 92 92)))
 *               (v128.or (i8x16.eq (local.get $d) (v128.const i8x16 34 34 34 34 34 34 34 34 34 34 34 34 34 34 34 34))
 *                        (i8x16.eq (local.get $d) (v128.const i8x16 92 92 92 92 92 92 92 92 92 92 92 92 92 92 92 92)))))))
 *         (local.set $i (i32.add (local.get $i) (i32.const 64)))
 *         (br $next)))
 *     (i32.or
 *       (v128.any_true (i8x16.lt_u (local.get $min) (v128.const i8x16 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32)))
 *       (i32.shl (v128.any_true (local.get $esc)) (i32.const 1))))
 * )
 * ```
 *
 * @module
 */

import { hasC0 } from "./control.ts";

/** {@link asciiClass} of a text that is not all ASCII. */
export const NOT_ASCII = -1;
/** Bit of {@link asciiClass}: the text holds a C0 control (U+0000–U+001F). */
export const HAS_C0 = 1;
/** Bit of {@link asciiClass}: the text holds `"` or `\\`. */
export const HAS_QUOTE_OR_BACKSLASH = 2;

/** The module the comment above builds (`wat2wasm --enable-simd`), base64. */
export const SCAN_WASM =
  "AGFzbQEAAAABBgFgAX8BfwMCAQAFAwEAAgcSAgZtZW1vcnkCAAVmbGFncwAACswCAckCAgF/Bnv9DP////////////////////8hAgJAA0AgASAATw0BIAH9AAQAIQQgAf0ABBAhBSAB/QAEICEGIAH9AAQwIQcgAiAEIAX9dyAGIAf9d/13/XchAiADIAT9DCIiIiIiIiIiIiIiIiIiIiL9IyAE/QxcXFxcXFxcXFxcXFxcXFxc/SP9UCAF/QwiIiIiIiIiIiIiIiIiIiIi/SMgBf0MXFxcXFxcXFxcXFxcXFxcXP0j/VD9UCAG/QwiIiIiIiIiIiIiIiIiIiIi/SMgBv0MXFxcXFxcXFxcXFxcXFxcXP0j/VAgB/0MIiIiIiIiIiIiIiIiIiIiIv0jIAf9DFxcXFxcXFxcXFxcXFxcXFz9I/1Q/VD9UP1QIQMgAUHAAGohAQwACwsgAv0MICAgICAgICAgICAgICAgIP0m/VMgA/1TQQF0cgs=";

/** Units encoded and scanned at a time; the module's memory (2 pages, 128 KiB) holds one with its padding. */
const CHUNK = 64 * 1024;
/** The scan's step: the module reads this many bytes at a time, so a chunk is padded to a multiple. */
const STEP = 64;
const SPACE = 0x20;

interface Scanner {
  readonly flags: (length: number) => number;
  readonly memory: Uint8Array;
}

const encoder = new TextEncoder();
/** The instantiated module; null when it cannot be (then the regular expressions answer). */
let scanner: Scanner | null | undefined;

function loadScanner(): Scanner | null {
  try {
    const bytes = Uint8Array.from(atob(SCAN_WASM), (c) => c.charCodeAt(0));
    const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes));
    const memory = instance.exports.memory as WebAssembly.Memory;
    const flags = instance.exports.flags as (length: number) => number;
    return { flags, memory: new Uint8Array(memory.buffer) };
  } catch {
    return null;
  }
}

/**
 * {@link NOT_ASCII} when `text` has a unit above U+007F, else its {@link HAS_C0} and
 * {@link HAS_QUOTE_OR_BACKSLASH} bits (0: JSON writes the text as it is, between quotes).
 *
 * @example
 * ```ts
 * import { asciiClass, HAS_C0, HAS_QUOTE_OR_BACKSLASH, NOT_ASCII } from "./ascii_scan.ts";
 * console.assert(asciiClass("plain text") === 0);
 * console.assert(asciiClass('say "hi"\n') === (HAS_C0 | HAS_QUOTE_OR_BACKSLASH));
 * console.assert(asciiClass("café") === NOT_ASCII);
 * ```
 */
export function asciiClass(text: string): number {
  if (scanner === undefined) scanner = loadScanner();
  return scanner === null ? asciiClassByRegExp(text) : scan(scanner, text);
}

function scan(scanner: Scanner, text: string): number {
  const { memory, flags } = scanner;
  let found = 0;
  for (let from = 0; from < text.length; from += CHUNK) {
    const chunk = text.length <= CHUNK ? text : text.slice(from, from + CHUNK);
    // Each unit that needs more than one byte (any above U+007F, a surrogate half included)
    // makes the written count differ from the units read, or stops the encoding short.
    const { read, written } = encoder.encodeInto(chunk, memory);
    if (read !== chunk.length || written !== chunk.length) return NOT_ASCII;
    const padded = Math.ceil(written / STEP) * STEP;
    memory.fill(SPACE, written, padded);
    found |= flags(padded);
  }
  return found;
}

/** Any unit above U+007F (a surrogate half included: without the `u` flag this matches units). */
const NON_ASCII = /[\u0080-\uffff]/;
const QUOTE_OR_BACKSLASH = /["\\]/;

/** {@link asciiClass} by regular expressions: where WebAssembly is missing, and for tests. */
export function asciiClassByRegExp(text: string): number {
  if (NON_ASCII.test(text)) return NOT_ASCII;
  return (hasC0(text) ? HAS_C0 : 0) | (QUOTE_OR_BACKSLASH.test(text) ? HAS_QUOTE_OR_BACKSLASH : 0);
}
