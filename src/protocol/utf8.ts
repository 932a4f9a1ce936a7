/**
 * UTF-8 sizing without encoding: the protocol measures every bound in UTF-8
 * bytes.
 *
 * @module
 */

const NON_ASCII = /[\u0080-\uffff]/;

/** Number of UTF-8 bytes `text` encodes to (a lone surrogate counts as U+FFFD, 3 bytes). */
export function utf8ByteLength(text: string): number {
  // ASCII (the common case) is found by the regex engine, much faster than the loop.
  if (!NON_ASCII.test(text)) return text.length;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}
