/**
 * The example's ticket API (the server side of `tickets.yaml`) on loopback.
 * Requires `Authorization: Bearer $TICKETS_TOKEN`. Standalone:
 * `deno run --allow-net=127.0.0.1:8780 --allow-env=TICKETS_TOKEN examples/openapi/server.ts`.
 *
 * @module
 */

/** A ticket as the API stores it. */
interface Ticket {
  id: string;
  title: string;
  labels: string[];
  status: "open" | "closed";
}

/** The port `tickets.yaml` and `magi-tools.jsonc` name. */
export const TICKETS_PORT = 8780;

/** Serve the API on 127.0.0.1:`port`, accepting only `token`; resolves the server. */
export function serveTickets(port: number, token: string): Deno.HttpServer<Deno.NetAddr> {
  const tickets: Ticket[] = [
    { id: "MAGI-7", title: "Tool results over the frame bound", labels: ["bug"], status: "open" },
    { id: "MAGI-8", title: "Document the OpenAPI source", labels: ["docs"], status: "open" },
    { id: "MAGI-3", title: "Flaky reaper test", labels: ["bug", "ci"], status: "closed" },
  ];
  const json = (value: unknown, status = 200) => Response.json(value, { status });
  return Deno.serve({ hostname: "127.0.0.1", port, onListen: () => {} }, async (request) => {
    if (request.headers.get("authorization") !== `Bearer ${token}`) {
      return json({ error: "unauthorized" }, 401);
    }
    const url = new URL(request.url);
    const path = url.pathname.replace(/^\/api/, "");
    if (request.method === "GET" && path === "/tickets") {
      const status = url.searchParams.get("status");
      const labels = url.searchParams.getAll("label");
      const limit = Number(url.searchParams.get("limit") ?? "10");
      return json(
        tickets.filter((t) => status === null || t.status === status)
          .filter((t) => labels.every((label) => t.labels.includes(label)))
          .slice(0, limit),
      );
    }
    if (request.method === "POST" && path === "/tickets") {
      const body = await request.json() as { title: string; labels?: string[] };
      const ticket: Ticket = {
        id: `MAGI-${10 + tickets.length}`,
        title: body.title,
        labels: body.labels ?? [],
        status: "open",
      };
      tickets.unshift(ticket);
      return json(ticket, 201);
    }
    if (request.method === "POST" && path === "/tickets/search") {
      const { text } = await request.json() as { text: string };
      return json(tickets.filter((t) => t.title.toLowerCase().includes(text.toLowerCase())));
    }
    const match = /^\/tickets\/([^/]+)(\/close)?$/.exec(path);
    const ticket = tickets.find((t) => t.id === decodeURIComponent(match?.[1] ?? ""));
    if (match === null) return json({ error: "not_found" }, 404);
    if (ticket === undefined) return json({ error: "no such ticket" }, 404);
    if (request.method === "GET" && match[2] === undefined) return json(ticket);
    if (request.method === "POST" && match[2] === "/close") {
      ticket.status = "closed";
      return json(ticket);
    }
    return json({ error: "method not allowed" }, 405);
  });
}

if (import.meta.main) {
  const token = Deno.env.get("TICKETS_TOKEN");
  if (token === undefined || token === "") {
    console.error("Set TICKETS_TOKEN to the token clients must send");
    Deno.exit(2);
  }
  serveTickets(TICKETS_PORT, token);
  console.error(`Ticket API on http://127.0.0.1:${TICKETS_PORT}/api (Ctrl-C stops it)`);
}
