/**
 * The terminal view (`run --format text`): a human transcript rendered from
 * the same NDJSON summary records the default output carries. It is a
 * {@link SummarySink}: the {@link SummaryWriter} writes its records into
 * {@link TextView.sink}, which parses each line and renders it, so the two
 * views can never drift apart (there is no second code path).
 *
 * What it shows: the prompt, streamed assistant text (`message.delta`, then
 * the reconciled `message`), each tool call with its shortened arguments
 * (`arguments_preview`), a spinner with the elapsed time while calls run
 * (`live` only), each outcome with its duration, the tool's captured output,
 * approvals with their decision, diagnostics, and a closing line with the
 * outcome, the number of calls and the wall time.
 *
 * `live` (stdout is a terminal) redraws one status line in place; otherwise
 * every line is final and no cursor control is written. `color` adds ANSI
 * colours ({@link colorFromEnv} decides it from `NO_COLOR`/`FORCE_COLOR`).
 *
 * Every text a record carries (assistant text, tool names, results, logs,
 * error messages, summaries) and the prompt are data, not terminal commands:
 * each string of a record goes through `terminalText` before anything is
 * rendered, so its control characters show as `\x1b`, `\u009b`, `\r`. The
 * only escape sequences written are the view's own (colours, the status
 * line's `\r\x1b[K`).
 *
 * @module
 */

import { type Clock, REAL_CLOCK, type TimerId } from "../async/clock.ts";
import { terminalText } from "../runtime/mod.ts";
import { CATALOG_TOOL_NAMES } from "./constants.ts";
import type { SummaryRecord } from "./records.ts";
import type { SummarySink } from "./writer.ts";
import {
  activityLine,
  approvalLine,
  callLine,
  duration,
  finishedOutcome,
  oneLine,
  progressText,
  readyLine,
  resultLines,
  type Style,
  terminalStrings,
} from "./_transcript_lines.ts";

/** Options of {@link TextView}. */
export interface TextViewOptions {
  /** Where the rendered text goes (e.g. the guarded stdout). */
  write: (bytes: Uint8Array) => Promise<void>;
  /** ANSI colours. */
  color: boolean;
  /** Redraw a spinner/elapsed status line while calls run (a terminal). */
  live: boolean;
  /** The prompt, shown first. */
  prompt?: string;
  /** Monotonic clock, ms; default `performance.now()`. */
  now?: () => number;
  /** Spinner frame interval, ms; default 100. */
  frameMs?: number;
  /** The spinner's timer; default {@link REAL_CLOCK}. */
  clock?: Clock;
}

const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const CLEAR_LINE = "\r\x1b[K";
const encoder = new TextEncoder();
const decoder = new TextDecoder();

const SGR: Record<Style, string> = {
  dim: "2",
  bold: "1",
  red: "31",
  green: "32",
  yellow: "33",
  cyan: "36",
};

/**
 * Whether to colour, from the environment: `NO_COLOR` (non-empty) turns
 * colours off, else `FORCE_COLOR` (non-empty, not `0`) turns them on, else
 * they follow `isTerminal`. `env` returns undefined for an unset (or
 * unreadable) variable.
 *
 * @example
 * ```ts
 * import { colorFromEnv } from "./text_view.ts";
 * console.assert(colorFromEnv((n) => n === "NO_COLOR" ? "1" : undefined, true) === false);
 * console.assert(colorFromEnv((n) => n === "FORCE_COLOR" ? "1" : undefined, false) === true);
 * ```
 */
export function colorFromEnv(
  env: (name: string) => string | undefined,
  isTerminal: boolean,
): boolean {
  const no = env("NO_COLOR");
  if (no !== undefined && no !== "") return false;
  const force = env("FORCE_COLOR");
  if (force !== undefined && force !== "") return force !== "0" && force !== "false";
  return isTerminal;
}

interface Running {
  readonly name: string;
  readonly started: number;
  /** The latest `tool.progress`, shown after the elapsed time. */
  progress?: string;
}

/**
 * Renders summary records as a transcript.
 *
 * @example
 * ```ts
 * import { TextView } from "./text_view.ts";
 * import { SummaryWriter } from "./writer.ts";
 * let out = "";
 * const view = new TextView({
 *   write: async (b) => { out += new TextDecoder().decode(b); },
 *   color: false,
 *   live: false,
 *   prompt: "hello",
 * });
 * const writer = new SummaryWriter(view.sink);
 * writer.emit({ type: "message", run_id: "r1", message_id: "m1", text: "Hi!", partial: false });
 * await writer.flush();
 * await view.close();
 * console.assert(out.includes("hello") && out.includes("Hi!"));
 * ```
 */
export class TextView {
  readonly #write: (bytes: Uint8Array) => Promise<void>;
  readonly #color: boolean;
  readonly #live: boolean;
  readonly #now: () => number;
  readonly #frameMs: number;
  readonly #started: number;
  readonly #running = new Map<string, Running>();
  /** Message IDs whose deltas were printed. */
  readonly #streamed = new Set<string>();
  /** Client tool names (from `host.ready`): their `activity` records repeat `tool.call`. */
  readonly #clientTools = new Set<string>(CATALOG_TOOL_NAMES);
  #calls = 0;
  /** Write-tool calls refused (`approval` `deny`): they never become calls. */
  #denied = 0;
  #partial = "";
  /** The cursor is not at the start of a line (streamed text). */
  #midLine = false;
  /** The status line is on screen. */
  #status = false;
  #frame = 0;
  /** Questions on the terminal now (no spinner meanwhile). */
  #prompting = 0;
  #timer: TimerId | undefined;
  readonly #clock: Clock;
  #out: Promise<void> = Promise.resolve();
  #closed = false;
  #ended = false;
  /** Why writing failed, once it did. */
  #writeError: unknown = undefined;

  /** A view writing to `options.write`. */
  constructor(options: TextViewOptions) {
    this.#write = options.write;
    this.#color = options.color;
    this.#live = options.live;
    this.#now = options.now ?? (() => performance.now());
    this.#frameMs = options.frameMs ?? 100;
    this.#clock = options.clock ?? REAL_CLOCK;
    this.#started = this.#now();
    if (options.prompt !== undefined) {
      const prompt = terminalText(options.prompt);
      this.#emit(`${this.#style("cyan", "❯")} ${this.#style("bold", prompt)}\n`);
    }
  }

  /**
   * The summary writer's sink: NDJSON in, rendered text out. Rejects once
   * writing failed (e.g. a closed terminal), so the writer reports it.
   */
  readonly sink: SummarySink = (bytes) => {
    this.#partial += decoder.decode(bytes, { stream: true });
    let lf: number;
    while ((lf = this.#partial.indexOf("\n")) >= 0) {
      const line = this.#partial.slice(0, lf);
      this.#partial = this.#partial.slice(lf + 1);
      if (line !== "") this.render(JSON.parse(line) as SummaryRecord);
    }
    return this.#out.then(() => {
      if (this.#writeError !== undefined) throw this.#writeError;
    });
  };

  /**
   * Render one record (normally through {@link TextView.sink}); its strings
   * are shown with their control characters made visible.
   */
  render(input: SummaryRecord): void {
    if (this.#closed) return;
    const record = terminalStrings(input);
    const s = (style: Style, text: string) => this.#style(style, text);
    switch (record.type) {
      case "host.ready":
        for (const tool of record.tools) this.#clientTools.add(tool.name);
        this.#line(readyLine(record, s));
        break;
      case "session":
        this.#line(
          s("dim", `  session ${record.session_id}${record.resumed ? " (resumed)" : ""}`),
        );
        break;
      case "message.delta":
        this.#streamed.add(record.message_id);
        this.#text(record.text);
        break;
      case "message":
        if (this.#streamed.has(record.message_id)) {
          this.#streamed.delete(record.message_id);
          if (this.#midLine) this.#text("\n");
        } else if (record.text !== "") {
          this.#text(record.text.endsWith("\n") ? record.text : record.text + "\n");
        }
        break;
      case "activity":
        if (record.kind === "tool" && this.#clientTools.has(record.name)) break;
        if (record.state === "started") break;
        this.#line(activityLine(record, s));
        break;
      case "approval":
        if (record.decision !== "allow") this.#denied++;
        this.#line(approvalLine(record, s));
        break;
      case "tool.call":
        this.#calls++;
        this.#running.set(record.call_id, { name: record.name, started: this.#now() });
        this.#line(callLine(record, s));
        this.#tick();
        break;
      case "tool.log":
        for (const text of record.text.replace(/\n$/, "").split("\n")) {
          this.#line(s("dim", `  │ ${text}`));
        }
        break;
      case "tool.cancel":
        this.#line(s("dim", `  ⊘ cancel requested (${record.reason})`));
        break;
      case "tool.result":
        this.#running.delete(record.call_id);
        for (const line of resultLines(record, s)) this.#line(line);
        break;
      case "diagnostic":
        this.#line(s("yellow", `! ${record.code}: ${record.summary}`));
        break;
      case "host.warning":
        this.#line(s("yellow", `! ${record.code}: ${record.message}`));
        break;
      case "tool.progress": {
        // Shown in the running call's status (live); a plain transcript skips it.
        const running = this.#running.get(record.call_id);
        if (running !== undefined) {
          running.progress = progressText(record);
          this.#tick();
        }
        break;
      }
      case "turn.finished":
        this.#closing(finishedOutcome(record, s), record.exit_code);
        break;
      case "host.error":
        this.#line(s("red", `✘ ${record.code}: ${record.message}`));
        this.#closing(s("red", `✘ ${record.code}`), record.exit_code);
        break;
      default:
        // turn.started, input.persisted: nothing a reader needs.
        break;
    }
  }

  /**
   * Make room for a question asked on the same terminal (an approval
   * prompt): the status line is removed, the spinner pauses and everything
   * rendered so far is written. Call {@link TextView.afterPrompt} once answered.
   */
  async beforePrompt(): Promise<void> {
    this.#prompting++;
    this.#stopTimer();
    if (this.#status) this.#emit(CLEAR_LINE);
    this.#status = false;
    if (this.#midLine) this.#emit("\n");
    // The question leaves the cursor after it: a line rendered meanwhile starts a new one.
    this.#midLine = true;
    await this.#out;
  }

  /** The question was answered (the cursor is at the start of a line); the spinner resumes. */
  afterPrompt(): void {
    this.#prompting = Math.max(0, this.#prompting - 1);
    if (this.#prompting === 0) {
      this.#midLine = false;
      this.#tick();
    }
  }

  /** Stop the spinner and wait until everything is written. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#stopTimer();
    if (this.#status) this.#emit(CLEAR_LINE);
    this.#status = false;
    if (this.#midLine) this.#emit("\n");
    this.#midLine = false;
    await this.#out;
  }

  #closing(outcome: string, exitCode: number): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#running.clear();
    const calls = `${this.#calls} call${this.#calls === 1 ? "" : "s"}${
      this.#denied === 0 ? "" : `, ${this.#denied} denied`
    }`;
    const wall = duration(this.#now() - this.#started);
    this.#line(`${outcome} ${this.#style("dim", `· ${calls} · ${wall} · exit ${exitCode}`)}`);
  }

  #style(style: Style, text: string): string {
    return this.#color ? `\x1b[${SGR[style]}m${text}\x1b[0m` : text;
  }

  /** A whole line (ends streamed text first). */
  #line(text: string): void {
    const before = this.#midLine ? "\n" : "";
    this.#midLine = false;
    this.#emit(before + text + "\n");
    this.#tick();
  }

  /** Streamed assistant text. */
  #text(text: string): void {
    if (text === "") return;
    this.#emit(text);
    this.#midLine = !text.endsWith("\n");
  }

  /** Queue `text`, removing the status line first; the next frame redraws it. */
  #emit(text: string): void {
    const clear = this.#status ? CLEAR_LINE : "";
    this.#status = false;
    this.#enqueue(encoder.encode(clear + text));
  }

  /** Write `bytes` after everything queued; a failure stops rendering (the sink reports it). */
  #enqueue(bytes: Uint8Array): void {
    this.#out = this.#out.then(() => this.#write(bytes)).catch((error: unknown) => {
      this.#writeError ??= error;
      this.#closed = true;
      this.#stopTimer();
    });
  }

  /** Start or stop the spinner with the running calls; draw a frame now. */
  #tick(): void {
    if (!this.#live || this.#closed) return;
    if (this.#running.size === 0 || this.#prompting > 0) {
      this.#stopTimer();
      return;
    }
    this.#timer ??= this.#clock.setInterval(() => this.#drawStatus(), this.#frameMs);
    this.#drawStatus();
  }

  #drawStatus(): void {
    if (this.#midLine || this.#running.size === 0 || this.#closed || this.#prompting > 0) return;
    const now = this.#now();
    const parts = [...this.#running.values()].map((r) =>
      `${r.name} ${((now - r.started) / 1000).toFixed(1)}s${
        r.progress === undefined ? "" : ` (${r.progress})`
      }`
    );
    this.#frame = (this.#frame + 1) % SPINNER.length;
    const text = `${this.#style("cyan", SPINNER[this.#frame]!)} ${oneLine(parts.join(", "), 100)}`;
    const bytes = encoder.encode((this.#status ? CLEAR_LINE : "") + text);
    this.#status = true;
    this.#enqueue(bytes);
  }

  #stopTimer(): void {
    if (this.#timer !== undefined) this.#clock.clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
