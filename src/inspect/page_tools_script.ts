/**
 * The page script's Tools tab: the tool list with the load errors and the
 * budget, a tool's detail with its call form, and a call's result (text parts,
 * images from data: URLs, `tool.log`). The form's fields are built by
 * `buildField` (`page_form_script.ts`); `h`, `api` and `state` come from
 * `page_script.ts`, `signInControls` from `sign_in_page.ts`.
 *
 * Plain browser JavaScript, no template literals (it sits inside one).
 *
 * @module
 */

/** The script: `showTools(view)`, `selectTool(name)`, `renderDetail()`, `showResult(el, r)`. */
export const TOOLS_SCRIPT = String.raw`
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
`;
