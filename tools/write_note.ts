/**
 * `write_note`: append one line to a notes file in the `notes/` directory of
 * the working directory.
 *
 * Its write scope is `notes` only: a scope over the whole working directory
 * would include the host's own inputs (`tools/`, `magi-tools.jsonc`,
 * `deno.json`, …), which the host refuses (docs/tools.md, "Host inputs"). A
 * missing `notes/` is created on first use where the sandbox allows it (the
 * Deno layer); under the kernel layer a directory that did not exist when the
 * tool's process started has no rule, so the tool then says to create it.
 *
 * @module
 */

import { appendFile, mkdir, open, stat } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { defineTool } from "@magi/tools";
import { resolveInside } from "./_paths.ts";

/** The only directory the tool may write (relative to the working directory). */
const NOTES_DIR = "notes";

export default defineTool({
  name: "write_note",
  description: "Append one line of text to a notes file in the notes/ directory of the " +
    "working directory (default notes.md; the file is created if missing, its directory must " +
    "exist). Use it to record findings or follow-ups for the user. The line must not contain " +
    "line breaks.",
  input: z.strictObject({
    text: z.string().min(1).max(4000).regex(/^[^\r\n]*$/, "must be a single line")
      .describe("The line to append, without a line break"),
    file: z.string().min(1).max(4096).default("notes.md")
      .describe("Notes file path relative to the notes/ directory"),
  }),
  effect: "write",
  timeoutMs: 10_000,
  permissions: { read: [NOTES_DIR], write: [NOTES_DIR] },
  async run({ text, file }, ctx) {
    const notes = join(ctx.cwd, NOTES_DIR);
    await ensureNotesDir(notes);
    const inside = await resolveInside(notes, file, {
      mayNotExist: true,
      within: `the ${NOTES_DIR}/ directory`,
    });
    const target = { ...inside, relative: `${NOTES_DIR}/${inside.relative}` };
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

/** Create `notes/` when missing; a clear error when the sandbox does not allow that. */
async function ensureNotesDir(path: string): Promise<void> {
  try {
    await stat(path);
    return;
  } catch (error) {
    if ((error as { code?: unknown }).code !== "ENOENT") throw error;
  }
  try {
    await mkdir(path);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "EEXIST") return;
    if (code === "EACCES" || code === "EPERM") {
      throw new Error(
        `The ${NOTES_DIR}/ directory does not exist and the sandbox does not let this tool ` +
          `create it: create ${NOTES_DIR}/ in the working directory first`,
      );
    }
    throw error;
  }
}

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
