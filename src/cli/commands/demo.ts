/**
 * `demo`: the repository's example tools against the reference backend, with a loopback fake
 * ticket API and a temporary `MC_HOME`, as the CLI entry dispatches it: pick the transcript or
 * NDJSON, guard stdout, and run the demonstration. `main.ts` imports this file only when `demo`
 * runs, so its imports are static.
 *
 * @module
 */

import { guardOutput } from "../../tool/output_guard.ts";
import {
  deleteEnv,
  getEnv,
  isAddrInUse,
  makeTempDir,
  removeAll,
  serveLoopback,
  setEnv,
  stdoutIsTerminal,
  writeStderrLine,
} from "../../runtime/mod.ts";
import { SummaryWriter } from "../../summary/writer.ts";
import { referenceBackendCommand } from "../../run/agent.ts";
import { ApprovalDecider } from "../../run/approvals.ts";
import { runBackend } from "../../run/backend_run.ts";
import type { DemoArgs } from "../args/mod.ts";
import { exitAfterOutput, summaryWriter, textView } from "./_output.ts";

/**
 * The demo's prompt: one call of each example tool. `write_note` is a write
 * tool: the backend asks for approval first, and the demo answers with the
 * default policy (`--approve deny`), so the note is never written.
 */
const DEMO_PROMPT = 'Please run text_stats {"text":"one two three\\nfour five"} ' +
  'then read_text {"path":"deno.json","length":120} ' +
  'then ticket_lookup {"id":"MAGI-7"} ' +
  'then write_note {"text":"MAGI-7 triaged"} and summarize.';

/** The fake tickets the demo API serves. */
const TICKETS: Record<string, unknown> = {
  "MAGI-7": { id: "MAGI-7", title: "Tool results over the frame bound", status: "open" },
};

function ticketApi(request: Request): Response {
  const url = new URL(request.url);
  const match = /^\/tickets\/([A-Za-z0-9-]{1,64})$/.exec(url.pathname);
  if (request.method !== "GET" || match === null) return new Response("Not found", { status: 404 });
  const ticket = TICKETS[match[1]!];
  if (ticket === undefined) return Response.json({ error: "not_found" }, { status: 404 });
  return Response.json(ticket);
}

/**
 * The example `ticket_lookup` declares `net: ["127.0.0.1:8765"]` (its default
 * API), which the process sandbox enforces: serve there when the port is
 * free (waiting up to 3 s for it), else on any free port (the tool is then
 * refused by its permissions and the demo shows that as a `permission_denied`
 * tool error).
 */
const TICKET_API_PORT = 8765;

/** How long to wait for the port (another demo run may hold it for a moment). */
const TICKET_API_PORT_WAIT_MS = 3_000;

async function startTicketApi(): Promise<{ url: string; stop: () => Promise<void> }> {
  const until = Date.now() + TICKET_API_PORT_WAIT_MS;
  for (;;) {
    try {
      return serveLoopback(ticketApi, TICKET_API_PORT);
    } catch (error) {
      if (!isAddrInUse(error)) throw error;
      if (Date.now() >= until) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  writeStderrLine(`magi-tools demo: port ${TICKET_API_PORT} is taken; using a free port`);
  return serveLoopback(ticketApi);
}

/** Run the demo; returns the exit code. */
async function runDemo(
  writer: SummaryWriter,
  view: { deltas: boolean; argumentsPreview: boolean },
): Promise<number> {
  const root = new URL("../../../", import.meta.url).pathname.replace(/\/$/, "");
  const home = await makeTempDir("magi-tools-demo-");
  const api = await startTicketApi();
  const previous = getEnv("TICKETS_API_URL");
  setEnv("TICKETS_API_URL", api.url);
  writeStderrLine(`magi-tools demo: reference backend, fake ticket API at ${api.url}`);
  try {
    return await runBackend({
      prompt: DEMO_PROMPT,
      toolDirs: [`${root}/tools`],
      agent: referenceBackendCommand(),
      cwd: root,
      env: { MC_HOME: home },
      session: undefined,
      approvals: new ApprovalDecider("deny", null),
      deltas: view.deltas,
      argumentsPreview: view.argumentsPreview,
      lastMessage: undefined,
      timeoutMs: 60_000,
      writer,
    });
  } finally {
    if (previous === undefined) deleteEnv("TICKETS_API_URL");
    else setEnv("TICKETS_API_URL", previous);
    await api.stop();
    await removeAll(home);
  }
}

/**
 * `demo`: the built-in demonstration against the reference backend, as a transcript on a
 * terminal (or `--format text`) and NDJSON elsewhere; resolves with the exit code.
 */
export async function demoCommand(args: DemoArgs): Promise<number> {
  const text = (args.format ?? (stdoutIsTerminal() ? "text" : "ndjson")) === "text";
  if (text && args.format === undefined) {
    writeStderrLine(
      "magi-tools demo: a transcript, as stdout is a terminal; --format ndjson (or a pipe) prints the NDJSON records",
    );
  }
  const guard = guardOutput();
  const view = text ? await textView(guard, DEMO_PROMPT) : null;
  try {
    const writer = summaryWriter(SummaryWriter, view === null ? guard : { writeStdout: view.sink });
    // The transcript streams the assistant text and shows the calls' arguments, as for run.
    const code = await runDemo(writer, { deltas: args.deltas || text, argumentsPreview: text });
    await writer.flush();
    return exitAfterOutput(writer, code);
  } finally {
    await view?.close();
    guard.restore();
  }
}
