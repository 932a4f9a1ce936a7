/**
 * `write_note`: append one line to a notes file in the working directory.
 *
 * @module
 */

import { appendFile, open, stat } from "node:fs/promises";
import { z } from "zod";
import { defineTool } from "@magi/tools";
import { resolveInside } from "./_paths.ts";

export default defineTool({
  name: "write_note",
  description: "Append one line of text to a notes file inside the working directory " +
    "(default notes.md; the file is created if missing, its directory must exist). Use it to " +
    "record findings or follow-ups for the user. The line must not contain line breaks.",
  input: z.strictObject({
    text: z.string().min(1).max(4000).regex(/^[^\r\n]*$/, "must be a single line")
      .describe("The line to append, without a line break"),
    file: z.string().min(1).max(4096).default("notes.md")
      .describe("Notes file path relative to the working directory"),
  }),
  effect: "write",
  timeoutMs: 10_000,
  permissions: { read: ["."], write: ["."] },
  async run({ text, file }, ctx) {
    const target = await resolveInside(ctx.cwd, file, { mayNotExist: true });
    const before = await sizeOf(target.real);
    if (before === "not_a_file") throw new Error(`Not a regular file: ${file}`);
    // Start on a fresh line when the file does not end with one.
    const needsBreak = before > 0 && !(await endsWithNewline(target.real));
    const line = `${needsBreak ? "\n" : ""}${text}\n`;
    ctx.signal.throwIfAborted();
    await appendFile(target.real, line, { encoding: "utf8" });
    const appended = new TextEncoder().encode(line).length;
    return { path: target.relative, appended_bytes: appended, total_bytes: before + appended };
  },
});

async function sizeOf(path: string): Promise<number | "not_a_file"> {
  try {
    const info = await stat(path);
    return info.isFile() ? info.size : "not_a_file";
  } catch (error) {
    if ((error as { code?: unknown }).code === "ENOENT") return 0;
    throw error;
  }
}

async function endsWithNewline(path: string): Promise<boolean> {
  const file = await open(path, "r");
  try {
    const { size } = await file.stat();
    const last = new Uint8Array(1);
    await file.read(last, 0, 1, size - 1);
    return last[0] === 0x0a;
  } finally {
    await file.close();
  }
}
