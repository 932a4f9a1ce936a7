/**
 * The page script's call form: a form field from a JSON Schema node (local
 * `$ref`s resolved; enums, objects, strings, numbers, booleans and arrays of
 * one item shape as inputs; any other shape as a raw JSON textarea).
 *
 * Plain browser JavaScript, no template literals (it sits inside one); uses
 * `h` from `page_script.ts`.
 *
 * @module
 */

/** The script: `buildField(schema, name, required, root)` → `{ el, value() }`. */
export const FORM_SCRIPT = String.raw`
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
`;
