/**
 * Describing tool modules without importing them into the host (Deno only).
 *
 * One `deno run` child with no `--allow-*` flag preloads every module (so
 * loading them needs no read permission), imports each and reports its
 * description. When that child fails as a whole (a module that does not
 * parse, ends the process, never finishes loading, or interferes with the
 * channel), each module is described alone to name the culprit.
 *
 * @module
 */

import { z } from "zod";
import { type ChildHandle, runtimeExecutable, spawnChild } from "../runtime/mod.ts";
import { FRAME_MARK, MAX_FRAME_CHARS } from "./channel.ts";
import type { DescribeResult } from "./describe.ts";
import { importFailureReason } from "../tool/load_reasons.ts";
import { NO_INHERIT_FLAG } from "./permissions.ts";
import { toolConfigFlags } from "./module_config.ts";

/** A module to describe. */
export interface ModuleRef {
  /** As found (for messages). */
  readonly file: string;
  /** Its file URL. */
  readonly url: string;
}

/** Options of {@link describeModules}. */
export interface DescribeOptions {
  /** The `deno` executable; default the running one (`runtimeExecutable()`). */
  readonly denoPath?: string;
  /** Working directory of the child. */
  readonly cwd?: string;
  /** Bound on one describe child, ms; default {@link DESCRIBE_TIMEOUT_MS}. */
  readonly timeoutMs?: number;
}

/** Default bound on one describe child, ms. */
export const DESCRIBE_TIMEOUT_MS = 10_000;

/** Children run at once when modules are described one by one (error path only). */
const ALONE_CONCURRENCY = 4;
const STDERR_TAIL_CHARS = 4_096;
const DESCRIBE_PATH = new URL("./describe.ts", import.meta.url).href;
const SETUP_PATH = new URL("./describe_setup.ts", import.meta.url).href;
const encoder = new TextEncoder();

const Grant = z.union([z.boolean(), z.array(z.string())]);
const SchemaResult = z.union([
  z.object({ schema: z.record(z.string(), z.unknown()) }).strict(),
  z.object({ error: z.string() }).strict(),
]);
const DescriptionSchema = z.object({
  name: z.string(),
  description: z.string(),
  effect: z.enum(["read", "write"]),
  timeoutMs: z.number().optional(),
  permissions: z.object({
    read: Grant.optional(),
    write: Grant.optional(),
    net: Grant.optional(),
    env: Grant.optional(),
    run: Grant.optional(),
    sys: Grant.optional(),
    ffi: Grant.optional(),
  }).strict().optional(),
  isolation: z.enum(["process", "inline"]).optional(),
  memoryMb: z.number().optional(),
  maxResultBytes: z.number().optional(),
  overflow: z.enum(["error", "truncate", "spill"]).optional(),
  title: z.string().optional(),
  annotations: z.object({
    readOnlyHint: z.boolean().optional(),
    destructiveHint: z.boolean().optional(),
    idempotentHint: z.boolean().optional(),
    openWorldHint: z.boolean().optional(),
  }).strict().optional(),
  input: SchemaResult,
  output: SchemaResult.optional(),
}).strict();
const ResultSchema = z.union([
  z.object({ ok: z.literal(true), tool: DescriptionSchema }).strict(),
  z.object({ ok: z.literal(false), reason: z.string(), permission: z.string().optional() })
    .strict(),
]);
const AnswerSchema = z.object({ t: z.literal("described"), results: z.array(ResultSchema) });

/**
 * Describe `modules` in a zero-permission child: one result per module, in
 * order. Never rejects for a module's fault (that is its result); rejects
 * only when the child cannot be started at all.
 */
export async function describeModules(
  modules: readonly ModuleRef[],
  options: DescribeOptions = {},
): Promise<DescribeResult[]> {
  if (modules.length === 0) return [];
  const whole = await runChild(modules, options);
  if (whole.ok) return whole.results;
  if (modules.length === 1) return [{ ok: false, reason: whole.reason }];
  // Error path: describe each module alone to find the one(s) at fault.
  const results: DescribeResult[] = new Array(modules.length);
  let next = 0;
  const worker = async () => {
    while (next < modules.length) {
      const index = next++;
      const alone = await runChild([modules[index]!], options);
      results[index] = alone.ok ? alone.results[0]! : { ok: false, reason: alone.reason };
    }
  };
  await Promise.all(Array.from({ length: Math.min(ALONE_CONCURRENCY, modules.length) }, worker));
  return results;
}

type ChildOutcome =
  | { readonly ok: true; readonly results: DescribeResult[] }
  | { readonly ok: false; readonly reason: string };

async function runChild(modules: readonly ModuleRef[], options: DescribeOptions) {
  const token = crypto.randomUUID().replaceAll("-", "") + crypto.randomUUID().replaceAll("-", "");
  const prefix = `${FRAME_MARK}${token} `;
  const timeoutMs = options.timeoutMs ?? DESCRIBE_TIMEOUT_MS;
  const args = [
    "run",
    "--no-prompt",
    NO_INHERIT_FLAG,
    ...toolConfigFlags(),
    `--preload=${SETUP_PATH}`,
    ...modules.map((module) => `--preload=${module.url}`),
    DESCRIBE_PATH,
  ];
  let child: ChildHandle;
  try {
    child = spawnChild(options.denoPath ?? runtimeExecutable(), args, {
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      stderr: "piped",
      env: { NO_COLOR: "1" },
    });
  } catch (error) {
    const reason = error instanceof Error ? (error.cause ?? error) : error;
    throw new Error(
      `Cannot start the tool describe process: ${
        reason instanceof Error ? reason.message : String(reason)
      }`,
      { cause: error },
    );
  }
  const writer = child.stdin.getWriter();
  writer.write(encoder.encode(`${JSON.stringify({ token, urls: modules.map((m) => m.url) })}\n`))
    .catch(() => {});
  writer.close().catch(() => {});
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill("SIGKILL");
  }, timeoutMs);
  const [frame, stderr, status] = await Promise.all([
    readFrame(child, prefix),
    readTail(child.stderr!),
    child.exited,
  ]).finally(() => clearTimeout(timer));
  // Only a child that finished on its own counts (describe.ts exits 0 right after its answer).
  const outcome = status.code === 0 && !timedOut ? answerOf(frame, modules.length) : null;
  if (outcome !== null) return outcome;
  if (timedOut) {
    return { ok: false, reason: `did not finish loading within ${timeoutMs} ms` } as const;
  }
  if (frame === "oversized") {
    return { ok: false, reason: "the describe process sent an oversized answer" } as const;
  }
  // Deno's `error: …` line, with the code frame and location a syntax error has after it.
  const error = /^error: (.*)$/ms.exec(stderr)?.[1];
  const reason = error !== undefined
    ? importFailureReason(error.replace(/^Uncaught (\(in promise\) )?/, ""))
    : status.code === 4
    ? "the module interfered with the describe process's channel"
    : `the module ended the process while loading (${
      status.signal === null ? `exit code ${status.code}` : status.signal
    })`;
  return { ok: false, reason } as const;
}

function answerOf(frame: string | null | "oversized", count: number): ChildOutcome | null {
  if (frame === null || frame === "oversized") return null;
  let parsed;
  try {
    parsed = AnswerSchema.safeParse(JSON.parse(frame));
  } catch {
    return null;
  }
  if (!parsed.success || parsed.data.results.length !== count) return null;
  return { ok: true, results: parsed.data.results as DescribeResult[] };
}

/** The first stdout line carrying the token (without it), bounded; other output is dropped. */
async function readFrame(child: ChildHandle, prefix: string): Promise<string | null | "oversized"> {
  const decoder = new TextDecoder();
  let buffered = "";
  let frame: string | null | "oversized" = null;
  try {
    for await (const chunk of child.stdout) {
      if (frame !== null) continue;
      buffered += decoder.decode(chunk, { stream: true });
      let newline = buffered.indexOf("\n");
      while (newline >= 0 && frame === null) {
        const line = buffered.slice(0, newline);
        if (line.startsWith(prefix)) frame = line.slice(prefix.length);
        buffered = buffered.slice(newline + 1);
        newline = buffered.indexOf("\n");
      }
      if (frame === null && buffered.length > MAX_FRAME_CHARS) {
        if (buffered.startsWith(prefix)) {
          frame = "oversized";
          child.kill("SIGKILL");
        }
        buffered = "";
      }
    }
  } catch {
    // The pipe broke: the exit status answers.
  }
  return frame;
}

async function readTail(stream: ReadableStream<Uint8Array>): Promise<string> {
  let tail = "";
  try {
    for await (const text of stream.pipeThrough(new TextDecoderStream())) {
      tail = (tail + text).slice(-STDERR_TAIL_CHARS);
    }
  } catch {
    // Ignored: the tail is for messages only.
  }
  return tail;
}

/**
 * `value` as one module's {@link DescribeResult} when it has the exact shape
 * the describe child answers (the description cache checks what it reads
 * back with this), else null.
 */
export function parseDescribeResult(value: unknown): DescribeResult | null {
  const parsed = ResultSchema.safeParse(value, { jitless: true });
  return parsed.success ? parsed.data as DescribeResult : null;
}
