/**
 * Sessions and history for the inspector's Turns view: one short backend
 * connection per request (the backend fixed at start), as the `sessions` and
 * `history` commands make.
 *
 * @module
 */

import { HostError } from "../errors/mod.ts";
import type { LocalAgentClient } from "../client/client.ts";
import type { HistoryEntry } from "../protocol/schemas/mod.ts";
import type { AgentCommand } from "../run/agent.ts";
import { BrowseOutput, type BrowseRecord } from "../run/browse_records.ts";
import { withAgent } from "../run/connect.ts";
import { listedSessions, LISTING_CAPABILITIES } from "../run/session_listing.ts";

/** A browse output that keeps the failure record instead of writing it to stdout. */
class Kept extends BrowseOutput {
  failure: string | null = null;
  override record(input: BrowseRecord): void {
    if (input.type === "host.error") this.failure = `${input.code}: ${input.message}`;
  }
  override line(): void {}
  override flush(): Promise<void> {
    return Promise.resolve();
  }
}

/** One listed session. */
export interface SessionItem {
  /** Session ID. */
  readonly session_id: string;
  /** Title, or null. */
  readonly title: string | null;
  /** Last update (RFC 3339), or null. */
  readonly updated_at: string | null;
}

/** One history message (its parts joined). */
export interface HistoryItem {
  /** Message ID. */
  readonly message_id: string;
  /** `user`, `assistant`, … as the backend stores it. */
  readonly kind: string;
  /** Whole text. */
  readonly text: string;
}

async function withBackend<T>(
  agent: AgentCommand,
  cwd: string,
  capabilities: readonly string[],
  body: (client: LocalAgentClient, negotiated: ReadonlySet<string>) => Promise<T>,
  optional: readonly string[] = [],
): Promise<T> {
  const out = new Kept();
  let result: T | undefined;
  const code = await withAgent(
    { agent, cwd, capabilities: [...capabilities, "shutdown"], optional, out },
    async (client, _init, negotiated) => {
      result = await body(client, negotiated);
      return 0;
    },
  );
  if (code !== 0 || result === undefined) {
    // The backend could not answer: the page shows the message (HTTP 502).
    throw new HostError(
      "request_failed",
      out.failure ?? `The backend request failed (exit ${code})`,
    );
  }
  return result;
}

/** Every session the backend lists for `cwd`. */
export function listSessions(agent: AgentCommand, cwd: string): Promise<SessionItem[]> {
  const { required, optional } = LISTING_CAPABILITIES;
  return withBackend(agent, cwd, required, async (client, negotiated) => {
    const sessions: SessionItem[] = [];
    for await (const page of listedSessions(client, negotiated)) {
      for (const s of page.sessions) {
        sessions.push({
          session_id: s.session_id,
          title: s.title ?? null,
          updated_at: s.updated_at ?? null,
        });
      }
    }
    return sessions;
  }, optional);
}

/** The whole history of `sessionId`, one item per message. */
export function sessionHistory(
  agent: AgentCommand,
  cwd: string,
  sessionId: string,
): Promise<HistoryItem[]> {
  return withBackend(agent, cwd, ["session.open", "history.page"], async (client) => {
    const opened = await client.sessionOpen(sessionId);
    const items: { message_id: string; kind: string; text: string }[] = [];
    for await (const page of client.historyPages(sessionId, opened.revision)) {
      for (const entry of page.entries as HistoryEntry[]) {
        const last = items.at(-1);
        if (entry.part === 0 || last === undefined || last.message_id !== entry.message_id) {
          items.push({ message_id: entry.message_id, kind: entry.kind, text: entry.text });
        } else last.text += entry.text;
      }
    }
    return items;
  });
}
