/**
 * `ticket_lookup`: wrap an internal HTTP JSON API as a tool.
 *
 * The pattern: read the base URL from the environment, call the API with the
 * tool's signal (so cancel and deadlines abort the request), validate the
 * response with zod, and return only what the model needs. Change the URL,
 * the response schema and the declared `permissions` (`net` host:port and the
 * `env` variable) to fit your API.
 *
 * @module
 */

import process from "node:process";
import { z } from "zod";
import { defineTool } from "@magi/tools";

/** Used when `TICKETS_API_URL` is not set. */
const DEFAULT_BASE_URL = "http://127.0.0.1:8765";
/** Largest response body read, bytes. */
const MAX_RESPONSE_BYTES = 1_048_576;
/** Longest description passed to the model, characters. */
const SUMMARY_CHARS = 1_000;

/** What the API answers for one ticket (extra fields are ignored). */
const TicketSchema = z.object({
  id: z.string(),
  title: z.string(),
  status: z.string(),
  assignee: z.string().nullable().optional(),
  priority: z.string().nullable().optional(),
  updated_at: z.string().optional(),
  description: z.string().optional(),
});

export default defineTool({
  name: "ticket_lookup",
  description: "Fetch one ticket from the team's ticket tracker by its id (for example ABC-123) " +
    "and return its title, status, assignee, priority, last update and the start of its " +
    "description. Fails with a message when the ticket does not exist.",
  input: z.strictObject({
    id: z.string().regex(/^[A-Za-z][A-Za-z0-9]*-[0-9]{1,9}$/, "must look like ABC-123")
      .describe("Ticket id, for example ABC-123"),
  }),
  effect: "read",
  timeoutMs: 10_000,
  // Enforced by the process sandbox: the tool can reach only this host:port and
  // read only this variable. Change both when you point TICKETS_API_URL elsewhere.
  permissions: { net: ["127.0.0.1:8765"], env: ["TICKETS_API_URL"] },
  async run({ id }, ctx) {
    const base = (process.env["TICKETS_API_URL"] ?? DEFAULT_BASE_URL).replace(/\/+$/, "");
    const response = await fetch(`${base}/tickets/${encodeURIComponent(id)}`, {
      signal: ctx.signal,
      headers: { accept: "application/json" },
    });
    if (!response.ok) {
      await response.body?.cancel();
      throw new Error(`Ticket API answered ${response.status} for ticket ${id}`);
    }
    const body = await readBounded(response, MAX_RESPONSE_BYTES);
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      throw new Error(`Ticket API answered with invalid JSON for ticket ${id}`);
    }
    const parsed = TicketSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(
        `Ticket API answered with an unexpected shape for ticket ${id}: ${
          issue?.path.join(".") || "(body)"
        }: ${issue?.message ?? "invalid"}`,
      );
    }
    const ticket = parsed.data;
    const description = ticket.description ?? "";
    return {
      id: ticket.id,
      title: ticket.title,
      status: ticket.status,
      assignee: ticket.assignee ?? null,
      priority: ticket.priority ?? null,
      updated_at: ticket.updated_at ?? null,
      summary: description.length > SUMMARY_CHARS
        ? `${description.slice(0, SUMMARY_CHARS)}… (${description.length} characters in full)`
        : description,
    };
  },
});

async function readBounded(response: Response, maxBytes: number): Promise<string> {
  if (response.body === null) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
      if (total > maxBytes) {
        throw new Error(`Ticket API response is larger than ${maxBytes} bytes`);
      }
      chunks.push(value);
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return new TextDecoder().decode(bytes);
}
