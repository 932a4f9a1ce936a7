/**
 * Settling a call: what a runner's {@link Settled} becomes as the answer the model sees, and
 * that answer as the {@link ToolCallResult} the front door sends. A stopped call is answered
 * `cancelled` or `timeout` (saying whether the tool was abandoned or killed); a tool that threw
 * is reported on stderr (its line and its own stack frames) and answered `tool_failed` (an
 * external source's `ExternalToolError` with its own code); a value becomes text within the
 * protocol's `result_bytes` and `result_parts` and the tool's own bound (cut or spilled by its
 * overflow policy; a rich result's media saved to files), split into parts.
 *
 * @module
 */

import type { Clock } from "../async/clock.ts";
import { requestFrame } from "../protocol/envelope.ts";
import { encodedFrameBytes } from "../protocol/framing.ts";
import { type ClientToolsLimits, ID_BYTES, INPUT_FRAME_BYTES } from "../protocol/limits.ts";
import { utf8ByteLength } from "../protocol/utf8.ts";
import { terminalText } from "../runtime/mod.ts";
import {
  type Answer,
  externalFailed,
  resultNotText,
  resultTooLarge,
  resultTooManyParts,
  type Stop,
  stopped,
  toolFailed,
} from "../tool/answers.ts";
import type { ToolCallResult } from "../tool/call.ts";
import {
  checkContent,
  type ContentPart,
  decodeBase64,
  isRichResult,
  partBytes,
} from "../tool/content.ts";
import type { ResultOverflow } from "../tool/define.ts";
import { ExternalToolError } from "../tool/external.ts";
import { type CutResult, saveMedia, spillResult, truncateResult } from "./overflow.ts";
import type { RegisteredTool } from "../toolset/registry.ts";
import {
  resultToText,
  type SplitOptions,
  splitResultText,
  splitSizedResultText,
} from "../tool/result.ts";
import { truncateText } from "../text/bounded.ts";
import { toolFrames } from "../tool/tool_stack.ts";

/** How a run ended, as a runner (`runners/`) hands it over. */
export type Settled =
  | { readonly kind: "value"; readonly value: unknown }
  | { readonly kind: "thrown"; readonly error: unknown }
  | { readonly kind: "abandoned" }
  | { readonly kind: "killed" }
  | { readonly kind: "answer"; readonly answer: Answer };

/** What {@link SettleOptions.onToolFailure} (the executor's `onToolFailure`) receives. */
export interface ToolFailure {
  /** `Tool NAME (FILE) failed: Error: message` (or `… crashed: …`). */
  readonly line: string;
  /** The tool's own stack frames (`at fn (file:///…:4:9)`), innermost first; may be empty. */
  readonly frames: readonly string[];
}

/** Options of {@link Settle}: the executor's, resolved. */
export interface SettleOptions {
  /** The descriptor's limits. */
  readonly limits: ClientToolsLimits;
  /** Where spilled results and saved media go (under `.magi-tools/results/`). */
  readonly cwd: string;
  /** The grace a signalled tool got (named in a stopped call's answer). */
  readonly graceMs: number;
  /** Bytes of a `client.tool.result` frame whose `text` is `""`. */
  readonly envelopeBytes: number;
  /** Stack frames on stderr for a tool that threw (`"stack"`), or one line. */
  readonly failureDetail: "stack" | "line";
  /** Where a failure's report goes. */
  readonly onToolFailure: (failure: ToolFailure) => void;
  /** The result bound and overflow policy of tools that declare none. */
  readonly resultDefaults:
    | { readonly maxResultBytes?: number; readonly overflow?: ResultOverflow }
    | undefined;
  /** Save a rich result's media to files and name them in the text. */
  readonly saveMedia: boolean;
  /** The clock of `durationMs`. */
  readonly clock: Clock;
}

/** Turns what runners settle with into answers and results (see the module comment). */
export class Settle {
  readonly #options: SettleOptions;
  readonly #limits: ClientToolsLimits;
  readonly #splitOptions: SplitOptions;

  /** A settler with `options`. */
  constructor(options: SettleOptions) {
    this.#options = options;
    this.#limits = options.limits;
    this.#splitOptions = Object.freeze({
      partBytes: options.limits.result_part_bytes,
      frameBytes: INPUT_FRAME_BYTES,
      envelopeBytes: options.envelopeBytes,
    });
  }

  /** The answer to a call to `entry` that settled as `settled`, its stop `signal` considered. */
  answer(
    entry: RegisteredTool,
    settled: Settled,
    signal: AbortSignal,
    callId: string,
  ): Answer | Promise<Answer> {
    // A grace timer only starts once the signal fired, so "abandoned"/"killed" imply aborted.
    if (signal.aborted || settled.kind === "abandoned" || settled.kind === "killed") {
      const reason = (signal.reason ?? { kind: "cancel" }) as Stop;
      const how = settled.kind === "abandoned" || settled.kind === "killed" ? settled.kind : null;
      return stopped(reason, how, this.#options.graceMs);
    }
    if (settled.kind === "answer") return settled.answer;
    if (settled.kind === "thrown") {
      return failed(entry, settled.error, this.#options.failureDetail, this.#options.onToolFailure);
    }
    return this.#success(settled.value, entry, callId);
  }

  /** `answer` as what is sent: split into parts, measured, timed from `started`. */
  result(answer: Answer, started: number): ToolCallResult {
    const split = answer.split;
    const result: { -readonly [K in keyof ToolCallResult]: ToolCallResult[K] } = {
      outcome: answer.outcome,
      text: answer.text,
      parts: Object.freeze(split?.parts ?? splitResultText(answer.text, this.#splitOptions)),
      bytes: split?.bytes ?? utf8ByteLength(answer.text),
      durationMs: Math.round(this.#options.clock.now() - started),
      abandoned: answer.abandoned ?? false,
      killed: answer.killed ?? false,
    };
    // Set only when present (no empty spreads on every call), in this order.
    if (split?.plainAscii !== undefined) result.plainAscii = split.plainAscii;
    if (answer.overflow !== undefined) result.overflow = answer.overflow;
    if (answer.content !== undefined) result.content = answer.content;
    if (answer.errorCode !== undefined) result.errorCode = answer.errorCode;
    return Object.freeze(result);
  }

  async #success(value: unknown, entry: RegisteredTool, callId: string): Promise<Answer> {
    if (isRichResult(value)) return await this.#richSuccess(value.content, entry, callId);
    let text: string;
    try {
      text = resultToText(value);
    } catch (error) {
      return resultNotText((error as Error).message);
    }
    const limit = this.#limits.result_bytes;
    // UTF-8 never has fewer bytes than UTF-16 units: a text longer than the limit in units is
    // too large without splitting it; otherwise one pass splits and sizes it.
    if (text.length > limit) return resultTooLarge(utf8ByteLength(text), limit);
    let split = splitSizedResultText(text, this.#splitOptions);
    if (split.bytes > limit) return resultTooLarge(split.bytes, limit);
    // The tool's own bound, within the protocol's.
    const maxBytes = this.#maxBytesOf(entry);
    let cut: CutResult | undefined;
    let overflow: ResultOverflow = "error";
    if (split.bytes > maxBytes) {
      overflow = this.#overflowOf(entry);
      if (overflow === "error") return resultTooLarge(split.bytes, maxBytes);
      try {
        cut = overflow === "truncate"
          ? truncateResult(text, maxBytes)
          : await spillResult(text, maxBytes, { cwd: this.#options.cwd, callId });
      } catch (error) {
        return resultNotText(
          `Result too large: ${split.bytes} bytes exceeds the limit of ${maxBytes} bytes, and writing it to a file failed: ${
            errorText(error)
          }`,
        );
      }
      text = cut.text;
      split = splitSizedResultText(text, this.#splitOptions);
    }
    const parts = split.parts.length;
    if (parts > this.#limits.result_parts) {
      return resultTooManyParts(split.bytes, parts, this.#limits.result_parts);
    }
    return {
      outcome: "success",
      text,
      split,
      ...(cut === undefined ? {} : {
        overflow: {
          policy: overflow as "truncate" | "spill",
          bytes: cut.bytes,
          kept: cut.kept,
          ...(cut.file === undefined ? {} : { file: cut.file }),
        },
      }),
    };
  }

  /**
   * A rich result (`content(...)`): its parts checked and bounded (decoded bytes, all parts
   * together, within the tool's bound), and its text for the `client.tools` path: each image or
   * audio part saved to a file (unless `saveMedia` is off) and named in a line.
   */
  async #richSuccess(given: unknown, entry: RegisteredTool, callId: string): Promise<Answer> {
    const parts = checkContent(given);
    if (typeof parts === "string") return resultNotText(parts);
    const maxBytes = this.#maxBytesOf(entry);
    const total = parts.reduce((sum, part) => sum + partBytes(part), 0);
    if (total > maxBytes) return resultTooLarge(total, maxBytes);
    const lines: string[] = [];
    try {
      for (const part of parts) lines.push(await this.#partText(part, callId));
    } catch (error) {
      return resultNotText(`Saving the result's media to a file failed: ${errorText(error)}`);
    }
    const text = lines.join("\n\n");
    const split = splitSizedResultText(text, this.#splitOptions);
    if (split.parts.length > this.#limits.result_parts) {
      return resultTooManyParts(split.bytes, split.parts.length, this.#limits.result_parts);
    }
    return { outcome: "success", text, split, content: parts };
  }

  async #partText(part: ContentPart, callId: string): Promise<string> {
    switch (part.type) {
      case "text":
        return part.text;
      case "resource_link":
        return `[resource link: ${part.name} ${part.uri}]`;
      case "image":
      case "audio": {
        const about = `${part.type}: ${part.mimeType}, ${partBytes(part)} bytes`;
        if (!this.#options.saveMedia) return `[${about}]`;
        const file = await saveMedia(decodeBase64(part.data), part.mimeType, {
          cwd: this.#options.cwd,
          callId,
        });
        return `[${about}, saved to the file ${file}]`;
      }
    }
  }

  /** A tool's result bound: its own, else the default, at most `result_bytes`. */
  #maxBytesOf(entry: RegisteredTool): number {
    const own = (entry.tool as { maxResultBytes?: number }).maxResultBytes;
    const limit = this.#limits.result_bytes;
    return Math.min(own ?? this.#options.resultDefaults?.maxResultBytes ?? limit, limit);
  }

  /** A tool's overflow policy; a typed tool (an `output` schema) keeps `"error"`. */
  #overflowOf(entry: RegisteredTool): ResultOverflow {
    // The registry converted a module tool's `output` (or took its description's): typed.
    if (entry.outputSchema !== undefined) return "error";
    const own = (entry.tool as { overflow?: ResultOverflow }).overflow;
    return own ?? this.#options.resultDefaults?.overflow ?? "error";
  }
}

/** The answer to a tool that threw, its report handed to `report`. */
function failed(
  entry: RegisteredTool,
  error: unknown,
  detail: "stack" | "line",
  report: (failure: ToolFailure) => void,
): Answer {
  const tool = `Tool ${entry.tool.name} (${entry.file}) failed`;
  if (error instanceof ExternalToolError) {
    report({ line: `${tool}: ${error.code}`, frames: [] });
    return externalFailed(error.code, error.message);
  }
  const message = error instanceof Error ? error.message : String(error);
  if (detail === "line") {
    const line = truncateText(message.replace(/\s+/g, " ").trim(), 512);
    report({ line: `${tool}: ${line}`, frames: [] });
    return toolFailed(message);
  }
  const firstLine = message.split("\n", 1)[0] ?? "";
  // A process tool's error arrives as message and stack: the stack's head keeps its own name.
  const head = error instanceof Error ? error.stack?.split("\n", 1)[0] : undefined;
  report({
    line: head !== undefined && head.endsWith(firstLine)
      ? `${tool}: ${head}`
      : error instanceof Error
      ? `${tool}: ${error.name}: ${firstLine}`
      : `${tool}: ${firstLine}`,
    frames: error instanceof Error ? toolFrames(error.stack ?? "") : [],
  });
  return toolFailed(message);
}

/** The default `onToolFailure`: the line and the tool's own frames on stderr. */
export function logFailure(failure: ToolFailure): void {
  console.error(
    terminalText([failure.line, ...failure.frames.map((frame) => `    ${frame}`)].join("\n")),
  );
}

/**
 * An error (a tool's, so its message is the tool's text) as one stderr text: its stack or
 * message, control characters shown visibly.
 */
export function errorText(error: unknown): string {
  return terminalText(error instanceof Error ? (error.stack ?? error.message) : String(error));
}

/**
 * Bytes (excluding LF) of a `client.tool.result` request frame whose `text` is `""`, measured
 * with 64-byte IDs and error code, the longest outcome and part number: never too small.
 */
export function defaultEnvelopeBytes(limits: ClientToolsLimits): number {
  const id = "x".repeat(ID_BYTES);
  const frame = requestFrame(id, "client.tool.result", {
    session_id: id,
    run_id: id,
    call_id: id,
    part: Math.max(0, limits.result_parts - 1),
    last_part: false,
    outcome: "cancelled",
    error_code: "e".repeat(ID_BYTES),
    text: "",
  });
  return encodedFrameBytes(frame) - 1;
}
