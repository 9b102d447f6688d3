// Forms generated from a legal action's JSON Schema (docs/protocol.md, "Legal actions"):
// enum -> select, integer bounds -> number input, boolean -> checkbox, array of enums ->
// a checkbox per value, anyOf -> a choice of variants, defaults pre-filled. Anything the
// generator does not know becomes a JSON text box, so every command can still be sent.
// `commandForm` returns { node, read }: read() gives the command object or throws an
// Error naming the field that is wrong.
import { el } from "./render.js";

let fieldCount = 0;
const fresh = (name) => `f${(fieldCount += 1)}-${name.replace(/[^A-Za-z0-9_-]/g, "_")}`;

function resolve(root, schema) {
  let node = schema || {};
  for (let hops = 0; node.$ref && hops < 16; hops += 1) {
    const path = node.$ref.replace(/^#\//, "").split("/");
    node = path.reduce((at, key) => (at ? at[key] : undefined), root) || {};
  }
  return node;
}

// A schema that allows null besides one other schema: that schema, optional.
function nullable(root, schema) {
  const options = schema.anyOf || schema.oneOf;
  if (!options || options.length !== 2) return null;
  const other = options.filter((o) => resolve(root, o).type !== "null");
  return other.length === 1 ? resolve(root, other[0]) : null;
}

const label = (name, schema, required) =>
  `${schema.title && schema.title !== name ? `${name} (${schema.title})` : name}${required ? "" : " (optional)"}`;

// One field: its control and a reader giving [present, value].
function field(root, name, raw, required) {
  let schema = resolve(root, raw);
  const inner = nullable(root, schema);
  if (inner) {
    schema = { ...inner, description: inner.description || schema.description };
    required = false;
  }
  const id = fresh(name);
  const hint = schema.description ? el("span", { class: "hint", text: ` ${schema.description.split("\n")[0]}` }) : null;
  const wrap = (control) => el("p", { class: "field" }, el("label", { for: id, text: label(name, schema, required) }), hint, control);

  if ("const" in schema) return { node: null, read: () => [true, schema.const] };

  if (Array.isArray(schema.enum)) {
    const select = el("select", { id, name, "data-field": name });
    if (!required && !("default" in schema)) select.append(el("option", { value: "", "data-unset": "1", text: "(not given)" }));
    schema.enum.forEach((v, i) => select.append(el("option", { value: String(i), text: v === "" ? "(none)" : String(v) })));
    if ("default" in schema && schema.enum.includes(schema.default)) select.value = String(schema.enum.indexOf(schema.default));
    return {
      node: wrap(select),
      read: () => {
        const opt = select.selectedOptions[0];
        if (!opt || opt.dataset.unset) return [false];
        return [true, schema.enum[Number(select.value)]];
      },
    };
  }

  if (schema.type === "integer" || schema.type === "number") {
    const input = el("input", {
      id, name, type: "number", "data-field": name,
      min: schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : undefined),
      max: schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : undefined),
      step: schema.type === "integer" ? 1 : "any",
      value: schema.default ?? undefined,
      required: required && !("default" in schema),
    });
    return {
      node: wrap(input),
      read: () => {
        if (input.value === "") {
          if (required && !("default" in schema)) throw new Error(`${name}: a number is required`);
          return [false];
        }
        const n = Number(input.value);
        if (schema.type === "integer" && !Number.isInteger(n)) throw new Error(`${name}: a whole number is required`);
        return [true, n];
      },
    };
  }

  if (schema.type === "boolean") {
    const box = el("input", { id, name, type: "checkbox", "data-field": name, checked: schema.default === true });
    return { node: wrap(box), read: () => [true, box.checked] };
  }

  if (schema.type === "string") {
    const input = el("input", {
      id, name, type: "text", "data-field": name, autocomplete: "off", spellcheck: "false",
      maxlength: schema.maxLength, pattern: schema.pattern, value: schema.default ?? undefined,
      required: required && !("default" in schema),
    });
    return {
      node: wrap(input),
      read: () => (input.value === "" && !required ? [false] : [true, input.value]),
    };
  }

  if (schema.type === "array") {
    const items = resolve(root, schema.items);
    if (Array.isArray(items.enum)) {
      const chosen = new Set(Array.isArray(schema.default) ? schema.default : []);
      const boxes = items.enum.map((v, i) => {
        const box = el("input", { type: "checkbox", id: `${id}-${i}`, "data-field": name, value: String(i), checked: chosen.has(v) });
        return el("label", { class: "choice" }, box, ` ${v}`);
      });
      const bounds = [schema.minItems ? `at least ${schema.minItems}` : "", schema.maxItems ? `at most ${schema.maxItems}` : ""]
        .filter(Boolean).join(", ");
      const set = el("fieldset", { class: "field", id, "data-field": name },
        el("legend", { text: `${label(name, schema, required)}${bounds ? `: ${bounds}` : ""}` }), hint, ...boxes);
      return {
        node: set,
        read: () => {
          const values = [...set.querySelectorAll("input:checked")].map((b) => items.enum[Number(b.value)]);
          if (schema.minItems && values.length < schema.minItems) throw new Error(`${name}: choose at least ${schema.minItems}`);
          if (schema.maxItems && values.length > schema.maxItems) throw new Error(`${name}: choose at most ${schema.maxItems}`);
          if (!values.length && !required) return [false];
          return [true, values];
        },
      };
    }
  }

  if (schema.type === "object" && schema.properties) {
    const inner = objectFields(root, schema);
    const set = el("fieldset", { class: "field", id, "data-field": name }, el("legend", { text: label(name, schema, required) }), ...inner.nodes);
    return { node: set, read: () => [true, inner.read()] };
  }

  // Anything else (an array of records, a union of shapes): JSON typed by hand.
  const area = el("textarea", { id, name, "data-field": name, rows: 2, spellcheck: "false" });
  if ("default" in schema) area.value = JSON.stringify(schema.default);
  return {
    node: wrap(area),
    read: () => {
      if (area.value.trim() === "") {
        if (required) throw new Error(`${name}: a value is required (JSON)`);
        return [false];
      }
      try {
        return [true, JSON.parse(area.value)];
      } catch {
        throw new Error(`${name}: not valid JSON`);
      }
    },
  };
}

function objectFields(root, schema) {
  const required = new Set(schema.required || []);
  const fields = Object.entries(schema.properties || {}).map(([name, sub]) => [name, field(root, name, sub, required.has(name))]);
  return {
    nodes: fields.map(([, f]) => f.node).filter(Boolean),
    read: () => {
      const out = {};
      for (const [name, f] of fields) {
        const [present, value] = f.read();
        if (present) out[name] = value;
      }
      return out;
    },
  };
}

// What tells one anyOf variant from the others: its narrowed enums, shortly.
function variantName(root, variant, i) {
  const parts = [];
  for (const [name, raw] of Object.entries(resolve(root, variant).properties || {})) {
    const s = resolve(root, raw);
    const values = s.enum || (s.items && resolve(root, s.items).enum);
    if (name !== "type" && values && values.length <= 3) parts.push(`${name} ${values.join("/")}`);
  }
  return `${i + 1}: ${parts.join(", ").slice(0, 80) || "variant"}`;
}

// A form's fields for a command schema (an object, or an anyOf of objects).
export function commandFields(schema) {
  const root = schema;
  const variants = schema.anyOf ? schema.anyOf.map((v) => resolve(root, v)) : null;
  if (!variants) {
    const only = objectFields(root, resolve(root, schema));
    return { node: el("div", { class: "fields" }, ...only.nodes), read: only.read };
  }
  const id = fresh("variant");
  const picker = el("select", { id, "data-field": "variant" });
  variants.forEach((v, i) => picker.append(el("option", { value: String(i), text: variantName(root, v, i) })));
  const built = variants.map((v) => objectFields(root, v));
  const panes = built.map((b, i) => el("div", { class: "variant", hidden: i !== 0, "data-variant": i }, ...b.nodes));
  picker.addEventListener("change", () => panes.forEach((p, i) => { p.hidden = i !== Number(picker.value); }));
  return {
    node: el("div", { class: "fields" }, el("p", { class: "field" }, el("label", { for: id, text: "Which case" }), picker), ...panes),
    read: () => built[Number(picker.value)].read(),
  };
}

// Physical dice typed by the player: one roll per group, groups separated by ";", faces by
// spaces or commas ("3 5; 6" -> [[3, 5], [6]]). Empty: the server rolls.
export function parseDice(text) {
  const trimmed = text.trim();
  if (!trimmed) return undefined;
  return trimmed.split(";").map((group) => {
    const faces = group.trim().split(/[\s,]+/).filter(Boolean).map(Number);
    if (!faces.length || faces.some((f) => !Number.isInteger(f))) {
      throw new Error(`dice: "${group.trim()}" is not whole numbers (one roll per group, groups separated by ";")`);
    }
    return faces;
  });
}
