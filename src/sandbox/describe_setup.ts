/**
 * First preload of the describe child (internal): runs before any tool
 * module's top-level code. Reads the init line (frame token and module URLs)
 * from stdin, keeps private references to what writing a frame needs, and
 * keeps a module's load failure (an uncaught error or rejection while the
 * preloads evaluate) from ending the child, so `describe.ts` can report it
 * per module: importing a module whose evaluation failed rethrows its error.
 *
 * The channel is handed out once ({@link takeChannel}): a tool module that
 * imports this module and takes it first leaves `describe.ts` without it,
 * and the child then fails instead of reporting anything.
 *
 * @module
 */

import { FRAME_MARK } from "./channel.ts";

/** The init line the host writes to the describe child's stdin. */
export interface DescribeInit {
  readonly token: string;
  readonly urls: readonly string[];
}

/** The private channel: the init line and a frame writer. */
export interface DescribeChannel {
  readonly init: DescribeInit;
  send(message: unknown): void;
}

const encode = TextEncoder.prototype.encode.bind(new TextEncoder());
const decoder = new TextDecoder();
const stringify = JSON.stringify;
const stdout = Deno.stdout;
const rawWrite = stdout.writeSync.bind(stdout);

function readInitLine(): string {
  const stdin = Deno.stdin;
  const chunk = new Uint8Array(65_536);
  let text = "";
  for (;;) {
    const count = stdin.readSync(chunk);
    if (count === null) return text;
    text += decoder.decode(chunk.subarray(0, count), { stream: true });
    const newline = text.indexOf("\n");
    if (newline >= 0) return text.slice(0, newline);
  }
}

const init = JSON.parse(readInitLine()) as DescribeInit;
const prefix = `${FRAME_MARK}${init.token} `;
let channel: DescribeChannel | undefined = Object.freeze({
  init: Object.freeze({ token: "", urls: Object.freeze([...init.urls]) }),
  send(message: unknown): void {
    const bytes = encode(`\n${prefix}${stringify(message)}\n`);
    let offset = 0;
    while (offset < bytes.length) offset += rawWrite(bytes.subarray(offset));
  },
});

globalThis.addEventListener("error", (event) => event.preventDefault());
globalThis.addEventListener("unhandledrejection", (event) => event.preventDefault());

/** The channel, once; undefined when it was already taken. */
export function takeChannel(): DescribeChannel | undefined {
  const taken = channel;
  channel = undefined;
  return taken;
}
