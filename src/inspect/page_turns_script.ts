/**
 * The page script's Turns tab: the session list and a session's history,
 * running and cancelling a turn, the turn's records (assistant text, outcome),
 * approval prompts with every field of the call, and the tool calls drawn as
 * bars on a time axis.
 *
 * Plain browser JavaScript, no template literals (it sits inside one); uses
 * `h`, `api`, `$` and `state` from `page_script.ts`.
 *
 * @module
 */

/** The script: `loadSessions()`, `turnStarted(t)`, `turnFinished(t)`, `onRecord(r)`, `onApproval(a)`, `layoutBars()`. */
export const TURNS_SCRIPT = String.raw`
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
`;
