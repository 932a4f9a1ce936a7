/**
 * The browsing commands: `sessions` (list, NDJSON or `--table`), `history SESSION` (every
 * page), `models` (the cached catalog with availability and efforts, `--session` marks
 * that session's saved selection) and `select PROVIDER MODEL [--effort E] --session ID`.
 *
 * @module
 */

import type { LocalAgentClient } from "../../client/client.ts";
import type { EffortRequest, HistoryEntry, SessionListResult } from "../../protocol/schemas/mod.ts";
import {
  currentDir,
  isDirectory,
  realPath,
  terminalText,
  writeStderrLine,
} from "../../runtime/mod.ts";
import { resolveAgentCommand } from "../../run/agent.ts";
import type { BrowseArgs } from "../args/mod.ts";
import { BrowseOutput } from "../../run/browse_records.ts";
import { withAgent } from "../../run/connect.ts";
import { listedSessions, LISTING_CAPABILITIES } from "../../run/session_listing.ts";
import { EXIT } from "../../run/exit_codes.ts";
import { UsageError } from "../../errors/mod.ts";

type SessionListEntry = SessionListResult["sessions"][number];

/** Run one browsing command; resolves with the exit code. */
export async function browseCommand(args: BrowseArgs): Promise<number> {
  let cwd = currentDir();
  if (args.cwd !== undefined) {
    if (!(await isDirectory(args.cwd))) {
      throw new UsageError(`Option --cwd is not a directory: ${args.cwd}`);
    }
    cwd = await realPath(args.cwd);
  }
  const agent = await resolveAgentCommand(args.agent);
  const out = new BrowseOutput();
  const connect = (
    capabilities: readonly string[],
    body: (client: LocalAgentClient, negotiated: ReadonlySet<string>) => Promise<number>,
    optional: readonly string[] = [],
  ) =>
    withAgent(
      { agent, cwd, capabilities: [...capabilities, "shutdown"], optional, out },
      (client, _init, negotiated) => body(client, negotiated),
    );
  try {
    switch (args.command) {
      case "sessions":
        return await connect(
          LISTING_CAPABILITIES.required,
          (c, negotiated) => listSessions(c, negotiated, out, args.table),
          LISTING_CAPABILITIES.optional,
        );
      case "history":
        return await connect(
          ["session.open", "history.page"],
          (c) => showHistory(c, out, args.sessionId),
        );
      case "models":
        return await connect(
          ["status", "model.catalog", ...(args.session === undefined ? [] : ["session.open"])],
          (c) => showModels(c, out, { table: args.table, session: args.session }),
        );
      case "select":
        return await connect(
          ["status", "session.open", "model.catalog", "selection.set"],
          (c) => select(c, out, args),
        );
    }
  } finally {
    await out.flush();
  }
}

async function listSessions(
  client: LocalAgentClient,
  negotiated: ReadonlySet<string>,
  out: BrowseOutput,
  table: boolean,
): Promise<number> {
  let count = 0;
  const notices = new Set<string>();
  const rows: SessionListEntry[] = [];
  for await (const page of listedSessions(client, negotiated)) {
    for (const notice of page.notices) notices.add(notice);
    for (const s of page.sessions) {
      count++;
      if (table) rows.push(s);
      else out.record({ type: "session.listed", ...s });
    }
  }
  if (table) {
    out.line(["SESSION", "ELIGIBILITY", "UPDATED", "TITLE"].join("\t"));
    for (const s of sortByUpdate(rows)) {
      out.line(
        [s.session_id, s.eligibility, s.updated_at ?? "-", cell(s.title ?? "-")].join("\t"),
      );
    }
  }
  const all = [...notices];
  if (table) out.line(`${count} session(s)${all.length > 0 ? ` (${all.join(", ")})` : ""}`);
  else out.record({ type: "sessions.done", count, notices: all });
  return EXIT.ok;
}

async function showHistory(
  client: LocalAgentClient,
  out: BrowseOutput,
  sessionId: string,
): Promise<number> {
  const opened = await client.sessionOpen(sessionId);
  let current: { message_id: string; kind: string; text: string; partial: boolean } | null = null;
  let count = 0;
  let complete = false;
  const emit = () => {
    if (current === null) return;
    out.record({ type: "history.entry", ...current });
    count++;
    current = null;
  };
  for await (const page of client.historyPages(sessionId, opened.revision)) {
    complete = page.complete;
    for (const entry of page.entries as HistoryEntry[]) {
      if (entry.part === 0) {
        emit();
        current = {
          message_id: entry.message_id,
          kind: entry.kind,
          text: entry.text,
          partial: entry.partial,
        };
      } else if (current !== null) current.text += entry.text;
      if (entry.last_part) emit();
    }
  }
  emit();
  out.record({
    type: "history.done",
    session_id: sessionId,
    revision: opened.revision,
    entries: count,
    complete,
  });
  return EXIT.ok;
}

async function showModels(
  client: LocalAgentClient,
  out: BrowseOutput,
  options: { table: boolean; session: string | undefined },
): Promise<number> {
  if (options.session !== undefined) await client.sessionOpen(options.session);
  const status = await client.status();
  const selection = status.selection ?? null;
  let count = 0;
  let selectedListed = false;
  const notices = new Set<string>();
  if (options.table) {
    out.line(["PROVIDER", "MODEL", "AVAILABILITY", "EFFORTS", "SELECTED"].join("\t"));
  }
  for await (const page of client.catalogPages()) {
    for (const notice of page.notices) notices.add(notice);
    for (const choice of page.choices) {
      count++;
      const selected = selection !== null && choice.provider === selection.provider &&
        choice.model === selection.model;
      if (selected) selectedListed = true;
      const { selection_id: _, ...fields } = choice;
      if (options.table) {
        out.line(
          [
            cell(choice.provider),
            cell(choice.model),
            choice.availability,
            `${choice.effort_support}:${choice.permitted_efforts.join(",")}`,
            selected ? "*" : "",
          ].join("\t"),
        );
      } else out.record({ type: "model.choice", ...fields, selected });
    }
  }
  // The catalog observation may have reconciled the selection's effort metadata.
  const after = (await client.status()).selection ?? null;
  const current = after === null ? null : {
    provider: after.provider,
    model: after.model,
    requested_effort: after.requested_effort,
    effective_effort: after.effective_effort,
  };
  const running = current?.provider != null && current.model !== null
    ? `${current.provider}/${current.model}`
    : null;
  if (options.table) {
    // The model the backend runs, even when its catalog does not list it.
    if (!selectedListed && running !== null) {
      out.line(
        [cell(current!.provider!), cell(current!.model!), "(not in the catalog)", "-", "*"].join(
          "\t",
        ),
      );
    }
    const all = [...notices];
    out.line(`${count} choice(s)${all.length > 0 ? ` (${all.join(", ")})` : ""}`);
  } else out.record({ type: "models.done", count, notices: [...notices], selection: current });
  if (count === 0) writeStderrLine(emptyCatalogHint(running));
  return EXIT.ok;
}

/** The one stderr line for an empty catalog: what runs, and how the reference backend gets one. */
export function emptyCatalogHint(running: string | null): string {
  return `magi-tools: the backend's model catalog lists no models${
    running === null ? "" : `; it runs ${running}`
  }. The reference backend lists the models of $MC_HOME/catalog/<provider>.json that settings ` +
    `providers.catalog.enabled admits (docs/reference-backend.md, "Catalog")`;
}

async function select(
  client: LocalAgentClient,
  out: BrowseOutput,
  args: Extract<BrowseArgs, { command: "select" }>,
): Promise<number> {
  await client.sessionOpen(args.session);
  const catalog = await client.modelCatalog({ limit: 1 });
  const status = await client.status();
  const now = status.selection ?? null;
  if (
    args.effort === undefined && now !== null && now.provider === args.provider &&
    now.model === args.model
  ) {
    // Already the session's selection (e.g. the model `status` reports, which a backend
    // need not list in its catalog): nothing to save.
    out.record({
      type: "selection",
      session_id: args.session,
      provider: now.provider,
      model: now.model,
      requested_effort: now.requested_effort,
      effective_effort: now.effective_effort,
      history_revision: null,
      notices: ["already_selected"],
    });
    return EXIT.ok;
  }
  const effort: EffortRequest = args.effort === undefined
    ? { mode: "keep" }
    : args.effort === "default"
    ? { mode: "default" }
    : { mode: "set", value: args.effort };
  const result = await client.selectionSet({
    session_id: args.session,
    selection_revision: status.selection?.revision ?? "none",
    catalog_revision: catalog.revision,
    provider: args.provider,
    model: args.model,
    effort,
  });
  const s = result.selection;
  out.record({
    type: "selection",
    session_id: result.session_id,
    provider: s.provider,
    model: s.model,
    requested_effort: s.requested_effort,
    effective_effort: s.effective_effort,
    history_revision: result.history_revision,
    notices: result.notices,
  });
  return EXIT.ok;
}

/**
 * Sessions newest first by `updated_at` (RFC 3339); sessions without one
 * last; ties by session ID.
 *
 * @example
 * ```ts
 * import { sortByUpdate } from "./browse.ts";
 * const sorted = sortByUpdate([
 *   { session_id: "a", updated_at: null },
 *   { session_id: "b", updated_at: "2026-01-01T00:00:00Z" },
 *   { session_id: "c", updated_at: "2026-01-01T00:00:00.5Z" },
 * ]);
 * console.assert(sorted.map((s) => s.session_id).join() === "c,b,a");
 * ```
 */
export function sortByUpdate<T extends { session_id: string; updated_at: string | null }>(
  sessions: readonly T[],
): T[] {
  const time = (s: T) => s.updated_at === null ? -Infinity : Date.parse(s.updated_at);
  return [...sessions].sort((a, b) => {
    const diff = time(b) - time(a);
    if (diff !== 0 && !Number.isNaN(diff)) return diff;
    return a.session_id < b.session_id ? -1 : a.session_id > b.session_id ? 1 : 0;
  });
}

/**
 * A table cell: tab, LF and CR shown as `\u0009`, `\u000a`, `\u000d` (they would break the table),
 * every other control character as `terminalText` shows it (`\x1b`, `\u009b`).
 */
export function cell(text: string): string {
  return terminalText(
    text.replace(/[\t\n\r]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`),
  );
}
