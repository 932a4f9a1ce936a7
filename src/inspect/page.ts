/**
 * The inspector's single page: HTML, CSS and plain browser JavaScript in one
 * response, no dependencies, no build step, nothing fetched from elsewhere
 * (works offline). Untrusted text (tool descriptions, results, model output)
 * is only ever set as `textContent`, never parsed as HTML; the script and
 * style carry the per-server CSP nonce. The sign-in button's part is in
 * `sign_in_page.ts`.
 *
 * @module
 */

import { SIGN_IN_SCRIPT, SIGN_IN_STYLE } from "./sign_in_page.ts";

/** The page, with `nonce` on its script and style and `agent` shown in the header. */
export function pageHtml(nonce: string, agent: string): string {
  const safeAgent = agent.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>magi-tools inspect</title>
<link rel="icon" href="data:,">
<style nonce="${nonce}">${STYLE}${SIGN_IN_STYLE}</style>
</head>
<body>
<header>
  <strong>magi-tools inspect</strong>
  <nav>
    <button data-test="tab-tools" class="tab active" data-tab="tools">Tools</button>
    <button data-test="tab-turns" class="tab" data-tab="turns">Turns</button>
  </nav>
  <span class="muted">backend: ${safeAgent}</span>
  <span id="conn" data-test="connection" class="badge">connecting…</span>
</header>
<main>
  <section id="view-tools" class="view">
    <div id="load-errors" data-test="load-errors" hidden></div>
    <div class="columns">
      <aside>
        <div id="budget" data-test="budget" class="muted"></div>
        <ul id="tool-list" data-test="tool-list"></ul>
      </aside>
      <article id="tool-detail" data-test="tool-detail"><p class="muted">Pick a tool.</p></article>
    </div>
  </section>
  <section id="view-turns" class="view" hidden>
    <div class="columns">
      <aside>
        <h3>Sessions</h3>
        <button data-test="refresh-sessions" id="refresh-sessions">Refresh</button>
        <ul id="session-list" data-test="session-list"></ul>
      </aside>
      <article>
        <div class="row">
          <select id="session" data-test="session-select"><option value="">new session</option></select>
          <button id="run" data-test="run-turn">Run turn</button>
          <button id="cancel" data-test="cancel-turn" disabled>Cancel</button>
          <span id="turn-state" data-test="turn-state" class="muted"></span>
        </div>
        <textarea id="prompt" data-test="prompt" rows="3" placeholder="Prompt"></textarea>
        <div id="approvals" data-test="approvals"></div>
        <h3>Timeline</h3>
        <div id="timeline" data-test="timeline"></div>
        <h3>Assistant</h3>
        <pre id="assistant" data-test="assistant"></pre>
        <details><summary>Records</summary><pre id="records" data-test="records"></pre></details>
        <div id="history" data-test="history"></div>
      </article>
    </div>
  </section>
</main>
<script nonce="${nonce}">${SCRIPT}${SIGN_IN_SCRIPT}</script>
</body>
</html>
`;
}

const STYLE = String.raw`
:root { font: 14px/1.4 system-ui, sans-serif; color: #1d2433; background: #f6f7f9; }
header { display: flex; gap: 1em; align-items: center; padding: .5em 1em; background: #1d2433; color: #fff; }
header .muted { color: #aab; }
nav { display: flex; gap: .25em; }
.tab { background: #334; color: #fff; border: 0; padding: .3em .8em; border-radius: 4px; cursor: pointer; }
.tab.active { background: #4a6cf7; }
main { padding: 1em; }
.columns { display: grid; grid-template-columns: 260px 1fr; gap: 1em; }
aside ul { list-style: none; padding: 0; margin: .5em 0; }
aside li { padding: .35em .5em; border-radius: 4px; cursor: pointer; margin-bottom: 2px; background: #fff; }
aside li.selected { background: #dfe6ff; }
article { background: #fff; padding: 1em; border-radius: 6px; min-width: 0; }
.muted { color: #667; }
.badge { font-size: 12px; padding: .1em .5em; border-radius: 8px; background: #e3e6ee; color: #1d2433; }
.badge.write { background: #ffe2c6; } .badge.read { background: #d8f3dc; }
.badge.ok { background: #d8f3dc; } .badge.bad { background: #ffd6d6; }
pre { background: #f2f3f6; padding: .5em; overflow: auto; max-height: 24em; white-space: pre-wrap; word-break: break-word; }
#load-errors { background: #ffd6d6; border: 1px solid #e99; padding: .5em 1em; border-radius: 6px; margin-bottom: 1em; }
fieldset { border: 1px solid #dde; margin: .25em 0; }
label { display: block; margin: .35em 0; }
label > span { display: inline-block; min-width: 9em; font-family: ui-monospace, monospace; }
input[type=text], input[type=number], textarea, select { font: inherit; padding: .2em .4em; }
textarea { width: 100%; box-sizing: border-box; font-family: ui-monospace, monospace; }
button { font: inherit; padding: .25em .8em; cursor: pointer; }
.row { display: flex; gap: .5em; align-items: center; margin-bottom: .5em; }
#timeline { position: relative; background: #f2f3f6; min-height: 2em; border-radius: 4px; }
.bar { position: absolute; height: 22px; border-radius: 3px; font-size: 12px; overflow: hidden; white-space: nowrap; padding: 0 4px; box-sizing: border-box; color: #fff; background: #4a6cf7; }
.bar.label-after, .bar.label-before { overflow: visible; }
.bar.label-after > .label { position: absolute; left: 100%; padding-left: 4px; color: #1d2433; }
.bar.label-before > .label { position: absolute; right: 100%; padding-right: 4px; color: #1d2433; }
.bar.success { background: #2b9348; } .bar.error { background: #d62828; } .bar.cancelled { background: #888; }
.approval { background: #fff4d6; border: 1px solid #e8c766; padding: .5em; border-radius: 6px; margin: .5em 0; }
.approval-args dt { font-family: monospace; font-weight: bold; }
.approval-args dd { font-family: monospace; margin: 0 0 .3em 1.5em; white-space: pre-wrap; overflow-wrap: anywhere; }
.part { border-left: 3px solid #4a6cf7; padding-left: .5em; margin: .25em 0; }
`;

// Plain browser JavaScript (no template literals, so it can sit inside this one).
const SCRIPT = String.raw`
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

// ---- Tools ----
function showTools(view) {
  state.view = view;
  state.tools = view.tools;
  const errors = $("load-errors");
  errors.replaceChildren();
  errors.hidden = view.errors.length === 0;
  if (view.errors.length > 0) {
    errors.append(h("strong", { text: "Tool set not reloaded — the previous set stays loaded:" }));
    for (const e of view.errors) {
      // A syntax error's reason goes on with its location and code frame: shown as written.
      const lf = e.reason.indexOf("\n");
      errors.append(h("div", { "data-test": "load-error" },
        h("code", { text: e.file }), ": " + (lf < 0 ? e.reason : e.reason.slice(0, lf)),
        lf < 0 ? null : h("pre", { "data-test": "load-error-where", text: e.reason.slice(lf + 1) }),
        signInControls(e)));
    }
  }
  $("budget").textContent = view.budget.tools + " tool(s) · initialize " + view.budget.used +
    " of " + view.budget.frame + " bytes · " + view.budget.remaining + " left · version " + view.version;
  const list = $("tool-list");
  list.replaceChildren();
  for (const tool of view.tools) {
    list.append(h("li", {
      "data-test": "tool-" + tool.name,
      class: state.selected === tool.name ? "selected" : "",
      onclick: () => selectTool(tool.name),
    }, tool.name + " ", h("span", { class: "badge " + tool.effect, text: tool.effect })));
  }
  if (state.selected && !view.tools.some((t) => t.name === state.selected)) state.selected = null;
  if (state.selected === null && view.tools.length > 0) state.selected = view.tools[0].name;
  // Only a new tool set (or another tool) replaces the form: load errors alone keep its input.
  const key = view.version + " " + state.selected;
  if (state.rendered !== key) {
    state.rendered = key;
    renderDetail();
  }
}

function selectTool(name) {
  state.selected = name;
  showTools(state.view);
}

function bytesLine(label, used, limit) {
  return h("div", { text: label + ": " + used + (limit ? " of " + limit + " bytes" : " bytes") });
}

function renderDetail() {
  const detail = $("tool-detail");
  const tool = state.tools.find((t) => t.name === state.selected);
  if (!tool) { detail.replaceChildren(h("p", { class: "muted", text: "No tools loaded." })); return; }
  const form = h("div", { "data-test": "call-form" });
  const root = buildField(tool.input_schema, "", true, tool.input_schema);
  form.append(root.el);
  const raw = h("textarea", { rows: 6, "data-test": "raw-json", hidden: true });
  const rawToggle = h("input", { type: "checkbox", "data-test": "raw-toggle" });
  rawToggle.addEventListener("change", () => {
    if (rawToggle.checked) raw.value = JSON.stringify(root.value(), null, 2);
    raw.hidden = !rawToggle.checked;
    root.el.hidden = rawToggle.checked;
  });
  const result = h("div", { "data-test": "call-result" });
  const button = h("button", { "data-test": "call-button", text: "Call " + tool.name });
  button.addEventListener("click", async () => {
    let args;
    try {
      args = rawToggle.checked ? JSON.parse(raw.value || "{}") : root.value();
    } catch (e) {
      result.replaceChildren(h("div", { class: "badge bad", text: "Raw JSON: " + e.message }));
      return;
    }
    button.disabled = true;
    result.replaceChildren(h("span", { class: "muted", text: "running…" }));
    try {
      showResult(result, await api("POST", "/api/call", { name: tool.name, arguments: args }));
    } catch (e) {
      result.replaceChildren(h("div", { class: "badge bad", "data-test": "call-error", text: e.message }));
    } finally {
      button.disabled = false;
    }
  });
  detail.replaceChildren(
    h("h2", { text: tool.name }),
    h("p", { text: tool.description }),
    h("div", {}, h("span", { class: "badge " + tool.effect, text: tool.effect }), " ",
      h("span", { class: "badge", text: tool.isolation }), " ",
      h("span", { class: "muted", "data-test": "permissions", text: tool.permissions })),
    h("div", { class: "muted", text: "source: " + tool.source }),
    h("div", { class: "muted", text: "timeout: " + (tool.timeout_ms === null ? "default" : tool.timeout_ms + " ms") }),
    h("details", {},
      h("summary", { text: "Costs and JSON Schema" }),
      bytesLine("definition", tool.definition_bytes, 0),
      bytesLine("input schema", tool.schema_bytes, state.view.limits.schema_bytes),
      bytesLine("description", tool.description_bytes, state.view.limits.description_bytes),
      h("pre", { "data-test": "schema", text: JSON.stringify(tool.input_schema, null, 2) })),
    h("h3", { text: "Call" }),
    form,
    h("label", {}, rawToggle, " raw JSON"),
    raw,
    button,
    result,
  );
}

// A rich result's images, shown from data: URLs (the host checked each MIME type).
function media(content) {
  const box = h("div", { "data-test": "result-media" });
  for (const part of content) {
    if (part.type === "image") {
      box.append(h("div", { class: "part" },
        h("div", { class: "muted", text: "image · " + part.mimeType }),
        h("img", { "data-test": "result-image", alt: "image result (" + part.mimeType + ")",
          src: "data:" + part.mimeType + ";base64," + part.data })));
    }
  }
  return box.childElementCount === 0 ? null : box;
}

function showResult(el, r) {
  const parts = h("div", {});
  r.part_texts.forEach((text, i) => parts.append(
    h("div", { class: "part" }, h("div", { class: "muted", text: "part " + (i + 1) + " of " + r.parts }),
      h("pre", { text }))));
  // replaceChildren would show a null argument as the text "null": only real nodes.
  el.replaceChildren(...[
    h("div", { "data-test": "outcome", class: "badge " + (r.outcome === "success" ? "ok" : "bad"),
      text: r.outcome + (r.error_code ? " · " + r.error_code : "") }),
    h("span", { class: "muted", "data-test": "duration", text: " " + r.duration_ms + " ms · " + r.bytes + " bytes · " + r.parts + " part(s)" }),
    parts,
    r.content ? media(r.content) : null,
    r.log === null ? null : h("div", {}, h("div", { class: "muted", text: "tool.log" }),
      h("pre", { "data-test": "tool-log", text: r.log })),
  ].filter((node) => node !== null));
}

// A form field from a JSON Schema node: { el, value() }; unsupported shapes get raw JSON.
function resolveRef(schema, root) {
  if (schema && typeof schema.$ref === "string" && schema.$ref.startsWith("#/")) {
    let node = root;
    for (const key of schema.$ref.slice(2).split("/")) node = node && node[key];
    return node || schema;
  }
  return schema;
}

function typeOf(schema) {
  if (Array.isArray(schema.type)) return schema.type.find((t) => t !== "null");
  return schema.type;
}

function buildField(schema0, name, required, root) {
  const schema = resolveRef(schema0 || {}, root);
  const type = typeOf(schema);
  const label = (el, extra) => h("label", { "data-field": name || "(root)" },
    h("span", { text: (name || "value") + (required ? "" : "?") }), el, extra || null,
    schema.description ? h("small", { class: "muted", text: " " + schema.description }) : null);
  if (Array.isArray(schema.enum) || schema.const !== undefined) {
    const values = schema.enum || [schema.const];
    const select = h("select", { name });
    if (!required) select.append(h("option", { value: "", text: "(unset)" }));
    // Labels as a person reads them (upper, not "upper"); JSON only where two would look alike.
    const plain = values.map((v) => typeof v === "string" ? v : JSON.stringify(v));
    const labels = new Set(plain).size === plain.length ? plain : values.map((v) => JSON.stringify(v));
    values.forEach((v, i) => select.append(h("option", { value: String(i), text: labels[i] })));
    return { el: label(select), value: () => select.value === "" ? undefined : values[Number(select.value)] };
  }
  if (type === "object" && schema.properties) {
    const fields = [];
    const box = h("fieldset", { "data-field": name || "(root)" }, name ? h("legend", { text: name }) : null);
    const req = new Set(schema.required || []);
    for (const [key, sub] of Object.entries(schema.properties)) {
      const f = buildField(sub, key, req.has(key), root);
      fields.push([key, f]);
      box.append(f.el);
    }
    return { el: box, value: () => {
      const out = {};
      for (const [key, f] of fields) { const v = f.value(); if (v !== undefined) out[key] = v; }
      return out;
    } };
  }
  if (type === "string") {
    const input = h("input", { type: "text", name });
    if (schema.default !== undefined) input.value = String(schema.default);
    return { el: label(input), value: () => input.value === "" && !required ? undefined : input.value };
  }
  if (type === "number" || type === "integer") {
    const input = h("input", { type: "number", name, step: type === "integer" ? "1" : "any" });
    if (schema.default !== undefined) input.value = String(schema.default);
    return { el: label(input), value: () => input.value === "" ? undefined : Number(input.value) };
  }
  if (type === "boolean") {
    if (required) {
      const box = h("input", { type: "checkbox", name });
      return { el: label(box), value: () => box.checked };
    }
    const select = h("select", { name }, h("option", { value: "", text: "(unset)" }),
      h("option", { value: "true", text: "true" }), h("option", { value: "false", text: "false" }));
    return { el: label(select), value: () => select.value === "" ? undefined : select.value === "true" };
  }
  if (type === "array" && schema.items && !Array.isArray(schema.items)) {
    const items = [];
    const list = h("div", {});
    const add = h("button", { type: "button", "data-test": "add-" + name, text: "+ item" });
    const box = h("fieldset", { "data-field": name }, h("legend", { text: name + (required ? "" : "?") + " [ ]" }), list, add);
    add.addEventListener("click", () => {
      const f = buildField(schema.items, name + "[" + items.length + "]", true, root);
      const entry = { f, row: null };
      const remove = h("button", { type: "button", text: "−", onclick: () => {
        items.splice(items.indexOf(entry), 1); entry.row.remove();
      } });
      entry.row = h("div", { class: "row" }, f.el, remove);
      items.push(entry);
      list.append(entry.row);
    });
    return { el: box, value: () => items.length === 0 && !required ? undefined : items.map((e) => e.f.value()) };
  }
  // anyOf/oneOf, tuples, records, … : raw JSON for this field.
  const area = h("textarea", { rows: 2, name, placeholder: "JSON" });
  return { el: label(area, h("small", { class: "muted", text: " (JSON)" })), value: () => {
    if (area.value.trim() === "") return undefined;
    return JSON.parse(area.value);
  } };
}

// ---- Turns ----
// Only the newest request's answer is shown (an older one arriving later would hide a new session).
let sessionsAsked = 0;
async function loadSessions() {
  const list = $("session-list");
  const asked = ++sessionsAsked;
  try {
    const sessions = await api("GET", "/api/sessions");
    if (asked !== sessionsAsked) return;
    list.replaceChildren();
    const select = $("session");
    const chosen = select.value;
    select.replaceChildren(h("option", { value: "", text: "new session" }));
    for (const s of sessions) addSession(s.session_id, s.title);
    select.value = chosen;
  } catch (e) {
    if (asked === sessionsAsked) list.replaceChildren(h("li", { class: "badge bad", text: e.message }));
  }
}

// A session in the list and the session menu (once: a known one is left as it is).
function addSession(id, title, first) {
  const list = $("session-list");
  if ([...list.children].some((li) => li.dataset.session === id)) return;
  const item = h("li", { "data-test": "session-item", "data-session": id, onclick: () => showHistory(id) },
    h("div", { text: title || "(untitled)" }),
    h("small", { class: "muted", text: id }));
  const option = h("option", { value: id, text: (title || id).slice(0, 60) });
  const select = $("session");
  if (first) { list.prepend(item); select.insertBefore(option, select.children[1] || null); }
  else { list.append(item); select.append(option); }
}

async function showHistory(id) {
  const box = $("history");
  box.replaceChildren(h("h3", { text: "History of " + id }));
  try {
    for (const m of await api("GET", "/api/history?session=" + encodeURIComponent(id))) {
      box.append(h("div", { "data-test": "history-entry" }, h("strong", { text: m.kind + ": " }), h("span", { text: m.text })));
    }
  } catch (e) {
    box.append(h("div", { class: "badge bad", text: e.message }));
  }
}

$("refresh-sessions").addEventListener("click", loadSessions);
$("run").addEventListener("click", async () => {
  const prompt = $("prompt").value;
  try {
    await api("POST", "/api/turn", { prompt, session_id: $("session").value || null });
  } catch (e) {
    $("turn-state").textContent = e.message;
  }
});
$("cancel").addEventListener("click", () => api("POST", "/api/cancel", {}).catch(() => {}));

function turnStarted(t) {
  state.turn = t.turn;
  state.prompt = t.prompt || "";
  state.t0 = performance.now();
  state.bars = new Map();
  state.rows = [];
  state.lastOutcome = "";
  state.deltas = false;
  $("assistant").textContent = "";
  $("records").textContent = "";
  $("approvals").replaceChildren();
  $("timeline").replaceChildren();
  $("timeline").style.height = "2em";
  $("run").disabled = true;
  $("cancel").disabled = false;
  $("turn-state").textContent = "running…";
  $("turn-state").className = "muted";
}

function turnFinished(t) {
  $("run").disabled = false;
  $("cancel").disabled = true;
  $("approvals").replaceChildren();
  const last = state.lastOutcome || "";
  $("turn-state").textContent = "finished: " + (last || "exit " + t.exit_code) + " · exit " + t.exit_code;
  $("turn-state").className = "badge " + (t.exit_code === 0 ? "ok" : "bad");
  for (const bar of state.bars.values()) if (!bar.end) bar.end = performance.now();
  layoutBars();
  loadSessions();
}

function onRecord(r) {
  $("records").textContent += JSON.stringify(r) + "\n";
  if (r.type === "message.delta") { state.deltas = true; $("assistant").textContent += r.text; }
  if (r.type === "message") {
    if (!state.deltas) $("assistant").textContent += r.text;
    $("assistant").textContent += "\n";
    state.deltas = false;
  }
  if (r.type === "session") {
    $("turn-state").textContent = "running in " + r.session_id;
    if (!r.resumed) addSession(r.session_id, state.prompt.slice(0, 60), true);
  }
  if (r.type === "tool.call") {
    state.bars.set(r.call_id, { name: r.name, args: r.arguments_preview || "", start: performance.now(), end: 0, outcome: "" });
    layoutBars();
  }
  if (r.type === "tool.progress") {
    const bar = state.bars.get(r.call_id);
    if (bar && !bar.end) {
      bar.progress = r.progress + (r.total !== undefined ? "/" + r.total : "") +
        (r.message !== undefined ? " " + r.message.slice(0, 40) : "");
      layoutBars();
    }
  }
  if (r.type === "tool.result") {
    const bar = state.bars.get(r.call_id);
    if (bar) { bar.end = performance.now(); bar.outcome = r.outcome; bar.ms = r.duration_ms; }
    layoutBars();
  }
  if (r.type === "approval") {
    const key = r.approval_id !== undefined ? r.approval_id : "call:" + r.call_id;
    const el = document.querySelector("[data-approval='" + CSS.escape(key) + "']");
    if (el) el.remove();
  }
  if (r.type === "turn.finished") {
    state.lastOutcome = r.outcome + (r.cancelled_by ? " by " + r.cancelled_by : "") +
      (r.exit_reason ? " (" + r.exit_reason.replace(/_/g, " ") + ")" : "");
  }
  if (r.type === "host.error") state.lastOutcome = r.code + ": " + r.message;
}

function onApproval(a) {
  const answer = (allow) => api("POST", "/api/approval", { approval_id: a.approval_id, allow })
    .then(() => box.remove()).catch((e) => { box.append(h("div", { text: e.message })); });
  const box = h("div", { class: "approval", "data-test": "approval", "data-approval": a.approval_id },
    h("strong", { text: "Approve? " }), h("span", { text: a.summary + " " }),
    h("button", { "data-test": "approve-allow", text: "Allow", onclick: () => answer(true) }), " ",
    h("button", { "data-test": "approve-deny", text: "Deny", onclick: () => answer(false) }),
    h("small", { class: "muted", text: a.expires_in_ms === null ? " until the call's deadline"
      : " expires in " + Math.round(a.expires_in_ms / 1000) + " s" }));
  if (a.call) {
    // Every field of the call, each value cut on its own (text nodes only).
    const list = h("dl", { class: "approval-args", "data-test": "approval-args" });
    for (const line of a.call.arguments) {
      list.append(h("dt", { text: line.path }), h("dd", { text: line.value +
        (line.cutBytes > 0 ? "… (" + line.cutBytes + " more bytes not shown)" : "") }));
    }
    if (a.call.hidden > 0) {
      list.append(h("dd", { text: "… " + a.call.hidden + " more field(s) not shown: do not approve what you cannot see" }));
    }
    box.append(list);
  }
  $("approvals").append(box);
}

// Tool calls as bars on a time axis; overlapping calls take separate rows. A label wider than
// its bar is drawn beside it (after it, or before it at the right edge), and counts towards the
// room the bar takes on its row, so no label is cut and none overlaps another bar.
function layoutBars() {
  const tl = $("timeline");
  const now = performance.now();
  const bars = [...state.bars.entries()];
  const span = Math.max(1000, ...bars.map(([, b]) => (b.end || now) - state.t0));
  const full = tl.clientWidth || 1;
  const rowsEnd = [];
  tl.replaceChildren();
  for (const [id, b] of bars) {
    const label = h("span", { class: "label", text: b.name + (b.ms !== undefined ? " " + b.ms + " ms" : " " + (b.progress || "…")) });
    const el = h("div", { class: "bar " + b.outcome, "data-test": "bar", "data-call": id,
      title: b.name + " " + b.args }, label);
    const width = Math.max(0.5, ((b.end || now) - b.start) / span * 100);
    const left = Math.min((b.start - state.t0) / span * 100, 100 - width);
    el.style.left = left + "%";
    el.style.width = "calc(" + width + "% - 2px)";
    tl.append(el);
    const leftPx = left / 100 * full;
    const barPx = el.offsetWidth;
    const labelPx = label.offsetWidth + 8;
    let from = leftPx;
    let to = leftPx + barPx;
    if (labelPx > barPx) {
      const after = leftPx + barPx + labelPx <= full || leftPx < labelPx;
      el.classList.add(after ? "label-after" : "label-before");
      if (after) to += labelPx; else from -= labelPx;
    }
    let row = rowsEnd.findIndex((end) => end <= from);
    if (row < 0) { row = rowsEnd.length; rowsEnd.push(0); }
    rowsEnd[row] = b.end ? to + 2 : Infinity;
    el.setAttribute("data-row", String(row));
    el.style.top = (row * 26 + 4) + "px";
  }
  tl.style.height = (Math.max(1, rowsEnd.length) * 26 + 8) + "px";
}
setInterval(() => { if (!$("run").disabled) return; layoutBars(); }, 250);

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
