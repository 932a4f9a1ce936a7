/**
 * The inspector page's script, plain browser JavaScript with no template
 * literals (so each part can sit inside one): the shared helpers (`h` builds
 * an element, setting text only as `textContent`; `api` calls the server with
 * the page's token), the tabs, then the Tools tab (`page_tools_script.ts`), the
 * call form (`page_form_script.ts`), the Turns tab (`page_turns_script.ts`) and
 * last the live event stream that drives them all. The sign-in part
 * (`sign_in_page.ts`) is appended after this one by `page.ts`.
 *
 * @module
 */

import { FORM_SCRIPT } from "./page_form_script.ts";
import { TOOLS_SCRIPT } from "./page_tools_script.ts";
import { TURNS_SCRIPT } from "./page_turns_script.ts";

/** The start: `state`, `$`, `h`, `api` and the tabs. */
const CORE_SCRIPT = String.raw`
"use strict";
const token = new URLSearchParams(location.search).get("token") || "";
const state = { tools: [], selected: null, view: null, turn: null, t0: 0, bars: new Map(), rows: [] };
const $ = (id) => document.getElementById(id);

function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "text") el.textContent = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) if (c !== null && c !== undefined) el.append(c);
  return el;
}

async function api(method, path, body) {
  const res = await fetch(path, {
    method,
    headers: Object.assign({ authorization: "Bearer " + token },
      body === undefined ? {} : { "content-type": "application/json" }),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await res.json().catch(() => ({ error: res.statusText }));
  if (!res.ok) throw new Error(data.error || res.statusText);
  return data;
}

// Tabs
for (const tab of document.querySelectorAll(".tab")) {
  tab.addEventListener("click", () => {
    for (const t of document.querySelectorAll(".tab")) t.classList.toggle("active", t === tab);
    $("view-tools").hidden = tab.dataset.tab !== "tools";
    $("view-turns").hidden = tab.dataset.tab !== "turns";
    if (tab.dataset.tab === "turns") loadSessions();
  });
}
`;

/** The end: the event stream (`/api/events`) feeding the parts above. */
const LIVE_SCRIPT = String.raw`
// ---- Live events ----
function connect() {
  const events = new EventSource("/api/events?token=" + encodeURIComponent(token));
  events.addEventListener("open", () => { $("conn").textContent = "live"; $("conn").className = "badge ok"; });
  events.addEventListener("error", () => { $("conn").textContent = "reconnecting…"; $("conn").className = "badge bad"; });
  events.addEventListener("tools", (e) => showTools(JSON.parse(e.data)));
  events.addEventListener("turn", (e) => {
    const t = JSON.parse(e.data);
    if (t.state === "running") turnStarted(t); else turnFinished(t);
  });
  events.addEventListener("record", (e) => onRecord(JSON.parse(e.data).record));
  events.addEventListener("approval", (e) => onApproval(JSON.parse(e.data)));
}
connect();
`;

/** The page's script, in order: helpers and tabs, Tools, call form, Turns, live events. */
export const PAGE_SCRIPT = CORE_SCRIPT + TOOLS_SCRIPT + FORM_SCRIPT + TURNS_SCRIPT + LIVE_SCRIPT;
