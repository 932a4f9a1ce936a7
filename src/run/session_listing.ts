/**
 * Every session a backend lists, to any count: through `session.discover` (no global
 * candidate ceiling; provisional pages de-duplicated by session ID) when the connection
 * negotiated it, else through the `session.list` snapshot (which a backend bounds, e.g. to 256
 * sessions, answering `discovery_limit` past it).
 *
 * @module
 */

import type { LocalAgentClient } from "../client/client.ts";
import type { SessionListEntry } from "../protocol/schemas/mod.ts";

/** The capabilities a listing asks for: required, and wanted when supported. */
export const LISTING_CAPABILITIES = {
  required: ["session.list"],
  optional: ["session.discover"],
} as const;

/** One page of listed sessions (none listed twice) and the page's notices. */
export interface ListedPage {
  /** Sessions not listed on an earlier page. */
  sessions: SessionListEntry[];
  /** The page's top-level notices. */
  notices: string[];
}

/** The pages of every session `client` lists; `negotiated` holds the connection's capabilities. */
export async function* listedSessions(
  client: LocalAgentClient,
  negotiated: ReadonlySet<string>,
): AsyncGenerator<ListedPage> {
  if (!negotiated.has("session.discover")) {
    for await (const page of client.sessionPages()) {
      yield { sessions: page.sessions, notices: page.notices };
    }
    return;
  }
  const seen = new Set<string>();
  for await (const page of client.discoverPages()) {
    const sessions = page.sessions.filter((s) => !seen.has(s.session_id));
    for (const s of sessions) seen.add(s.session_id);
    yield { sessions, notices: page.notices };
  }
}
