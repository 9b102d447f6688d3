// Forms generated from a legal action's JSON Schema (docs/protocol.md, "Legal actions"),
// with no JSON to type: a record is a group of fields, a list is rows to add and remove
// (each row the item's fields), a choice (enum, const, oneOf of consts) is a radio group
// (up to four) or a drop-down, labelled by its title; an integer gets its bounds; a
// boolean a checkbox; a fixed value (const, one-value enum) is shown, not asked; a union
// of cases (anyOf) a choice of case, then that case's fields; defaults are pre-filled; a
// command the schema's `not` leaves out (the state restated) is refused on reading.
// A hex field (a CCRR label) is filled by clicking the map: when it takes focus the page
// asks the map to highlight the hexes its narrowed schema allows (document event
// "umpire:highlight", detail {hexes}), and a click on the map (document event
// "umpire:hex", detail {hex}) fills the hex field that last took focus; a path of hexes
// grows by one hex per click. Anything the generator does not know is a JSON text box.
// Every control carries data-kind (what it is) for scripts that drive the page.
// `commandFields` returns { node, read }: read() gives the command object or throws an
// Error naming the field that is wrong.
import { accepts } from "./accepts.js";
import { el, humanize } from "./render.js";

let fieldCount = 0;
const fresh = (name) => `f${(fieldCount += 1)}-${String(name).replace(/[^A-Za-z0-9_-]/g, "_")}`;
const RADIO_MAX = 4; // choices up to this many are radio buttons, more a drop-down

function resolve(root, schema) {
  let node = schema || {};
  for (let hops = 0; node.$ref && hops < 16; hops += 1) {
    const path = node.$ref.replace(/^#\//, "").split("/");
    node = path.reduce((at, key) => (at ? at[key] : undefined), root) || {};
  }
  return node;
}

// A branch of an anyOf adds to what the schema around it says (an item's type and fields
// narrowed per case): the case's own schema, merged.
function merged(base, over) {
  if (base && over && typeof base === "object" && typeof over === "object" && !Array.isArray(base) && !Array.isArray(over)) {
    const out = { ...base };
    for (const [k, v] of Object.entries(over)) out[k] = k in base ? merged(base[k], v) : v;
    return out;
  }
  return over;
}

function cases(root, schema) {
  const options = schema.anyOf || schema.oneOf;
  if (!options) return null;
  const rest = { ...schema };
  delete rest.anyOf;
  delete rest.oneOf;
  return options.map((o) => merged(rest, resolve(root, o)));
}

// A schema that allows null besides one other schema: that schema, optional.
function nullable(root, schema) {
  const options = schema.anyOf || schema.oneOf;
  if (!options || options.length !== 2) return null;
  const other = options.filter((o) => resolve(root, o).type !== "null");
  return other.length === 1 ? resolve(root, other[0]) : null;
}

// A choice among constants: [{value, text}], from an enum or a oneOf/anyOf of consts.
function choicesOf(root, schema) {
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => ({ value: v, text: shown(v) }));
  const options = schema.oneOf || schema.anyOf;
  if (options && options.length && options.every((o) => "const" in resolve(root, o))) {
    return options.map((o) => {
      const r = resolve(root, o);
      return { value: r.const, text: r.title ? `${r.title}` : shown(r.const) };
    });
  }
  return null;
}

// A value as a player reads it: an enum's snake_case name in words (the value sent is
// unchanged); ids and numbers as they are.
const words = (v) => (typeof v === "string" && /^[a-z][a-z0-9]*(_[a-z0-9]+)+$/.test(v) ? v.replace(/_/g, " ") : String(v));
// A yes/no value is said so ("In play: no"), as the state pane says it.
const shown = (v) => (v === "" ? "(none)" : Array.isArray(v) ? v.join(" → ") || "(empty)"
  : typeof v === "boolean" ? (v ? "yes" : "no") : words(v));
const HEX_LABEL = /^\d{4}$/;

// A CCRR hex label: said so by its pattern or description, or every allowed value is one.
function isHex(name, schema) {
  if (schema.type && schema.type !== "string") return false;
  if (schema.pattern === "^\\d{4}$" || schema.pattern === "^[0-9]{4}$") return true;
  if (/hex label/i.test(schema.description || "")) return true;
  return /(^|_)hex$/.test(name) && Array.isArray(schema.enum) && schema.enum.length > 0 && schema.enum.every((v) => HEX_LABEL.test(v));
}

// A field by its schema's title, else its name in words ("flight_id" -> "Flight id").
// A schema's title is its type's name where the schema is an enum or a record type's
// (msgspec titles them by class: "DiceKind", "EarlyWarning"): code, not words, so the
// field's own name in words is said instead ("Dice", "Early warning").
const TYPE_NAME = /^[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+$/;
// A field without such a title is said by the game's ruleset's labels, the state pane's
// words for the same key ("caps": "Command Action Points", "flight_id": "Flight"), set by
// the table for the game it shows (`useLabels`), else by its name in words.
let fieldLabels = {};
export function useLabels(labels) {
  fieldLabels = labels && typeof labels === "object" ? labels : {};
}
const named = (name) => (Object.hasOwn(fieldLabels, name) ? fieldLabels[name] : humanize(name));
const titled = (name, title) => (title && title !== name && !TYPE_NAME.test(title) ? title : named(name));
const label = (name, schema, required) => `${titled(name, schema.title)}${required ? "" : " (optional)"}`;

// The hex field that last took focus: a click on the map fills it.
let activeHex = null;
function highlight(hexes) {
  document.dispatchEvent(new CustomEvent("umpire:highlight", { detail: { hexes } }));
}
document.addEventListener("umpire:hex", (event) => {
  if (!activeHex) return;
  if (!activeHex.input.isConnected) {
    activeHex = null;
    highlight([]);
    return;
  }
  activeHex.pick(String(event.detail && event.detail.hex));
});

// The forms are replaced (a new state): no hex field is waiting for a click any more.
export function releaseHexField() {
  if (activeHex) highlight([]);
  activeHex = null;
}

function hexField(root, name, schema, required, id, wrap, path) {
  const allowed = Array.isArray(schema.enum) ? schema.enum : null;
  const input = el("input", {
    id, name, type: "text", "data-field": name, "data-kind": path ? "hexpath" : "hex", class: "hex-field",
    autocomplete: "off", spellcheck: "false", inputmode: "numeric",
    placeholder: path ? "click hexes on the map, in order" : "click a hex on the map",
    value: schema.default ?? undefined,
  });
  const typed = () => input.value.split(/[\s,→>-]+/).filter(Boolean);
  // The hexes a click may add now: for a path, the next hex of some allowed path.
  const next = () => {
    if (!path) return allowed || [];
    const done = typed();
    const out = new Set();
    for (const p of allowed || []) {
      if (p.length > done.length && done.every((h, i) => p[i] === h)) out.add(p[done.length]);
    }
    return [...out];
  };
  // A path is complete when the schema allows it as it stands (not every step of an
  // allowed path is a place to stop): said on the field and in words beside it.
  const state = path ? el("span", { class: "hint path-state", "aria-live": "polite" }) : null;
  const steps = el("span", { class: "next-steps", "aria-label": "Next hex" });
  const mark = () => {
    if (!path) return;
    const value = typed();
    const complete = !allowed || allowed.some((p) => p.length === value.length && p.every((h, i) => h === value[i]));
    input.dataset.complete = complete ? "1" : "0";
    state.textContent = complete ? " ✓ a path allowed now" : " not a whole path yet: click the next highlighted hex";
    // The next steps also as buttons: a step off the map (an exit) has no hex to click.
    steps.replaceChildren(...next().map((hex) => {
      const b = el("button", { type: "button", class: "small next-hex", "data-hex-step": hex, text: `+ ${hex}` });
      b.addEventListener("click", () => { activeHex = me; me.pick(hex); });
      return b;
    }));
  };
  const me = {
    input,
    pick: (hex) => {
      if (path) {
        const offered = next();
        if (allowed && !offered.includes(hex)) return;
        input.value = [...typed(), hex].join(" ");
      } else {
        if (allowed && !allowed.includes(hex)) return;
        input.value = hex;
      }
      input.dispatchEvent(new Event("input", { bubbles: true }));
      highlight(next());
    },
  };
  mark();
  input.addEventListener("focus", () => {
    activeHex = me;
    highlight(next());
  });
  input.addEventListener("input", () => {
    mark();
    if (activeHex === me) highlight(next());
  });
  const clear = path ? el("button", { type: "button", class: "small", text: "Undo last hex", "data-kind": "undo" }) : null;
  if (clear) {
    clear.addEventListener("click", () => {
      input.value = typed().slice(0, -1).join(" ");
      mark();
      activeHex = me;
      highlight(next());
    });
  }
  // The allowed hexes also as suggestions while typing (a map too small to click).
  const suggestions = allowed && !path ? el("datalist", { id: `${id}-hexes` }, ...allowed.map((h) => el("option", { value: h }))) : null;
  if (suggestions) input.setAttribute("list", suggestions.id);
  const count = allowed ? (path ? "" : ` ${allowed.length} allowed hex${allowed.length === 1 ? "" : "es"}, highlighted on the map when this field has focus`) : "";
  return {
    node: wrap(input, suggestions, clear, path ? steps : null, state, count ? el("span", { class: "hint", text: count }) : null),
    read: () => {
      if (path) {
        const value = typed();
        if (allowed && !allowed.some((p) => p.length === value.length && p.every((h, i) => h === value[i]))) {
          throw new Error(`${titled(name, schema.title)}: ${value.join(" ") || "(empty)"} is not a path allowed now (click the highlighted hexes in order)`);
        }
        return [true, value];
      }
      if (input.value === "") {
        if (required && !("default" in schema)) throw new Error(`${titled(name, schema.title)}: a hex is required (click one on the map)`);
        return [false];
      }
      if (allowed && !allowed.includes(input.value)) throw new Error(`${titled(name, schema.title)}: ${input.value} is not one of the hexes allowed now (highlighted on the map)`);
      return [true, input.value];
    },
  };
}

function choiceField(name, schema, required, id, options) {
  const optional = !required && !("default" in schema);
  const initial = "default" in schema ? options.findIndex((o) => JSON.stringify(o.value) === JSON.stringify(schema.default)) : -1;
  const title = label(name, schema, required);
  if (options.length + (optional ? 1 : 0) <= RADIO_MAX) {
    const all = optional ? [{ value: undefined, text: "(not given)", unset: true }, ...options] : options;
    const radios = all.map((o, i) => el("input", {
      type: "radio", name: id, id: `${id}-${i}`, value: String(i), "data-unset": o.unset ? "1" : undefined,
      checked: (initial >= 0 ? i === initial + (optional ? 1 : 0) : i === 0),
    }));
    const set = el("fieldset", { class: "field choices", id, "data-field": name, "data-kind": "radio" },
      el("legend", { text: title }), schema.description ? el("span", { class: "hint", text: ` ${schema.description.split("\n")[0]}` }) : null,
      ...radios.map((r, i) => el("label", { class: "choice", for: r.id }, r, ` ${all[i].text}`)));
    return {
      node: set,
      read: () => {
        const on = radios.find((r) => r.checked);
        if (!on || on.dataset.unset) return [false];
        return [true, all[Number(on.value)].value];
      },
    };
  }
  const select = el("select", { id, name, "data-field": name, "data-kind": "select" });
  if (optional) select.append(el("option", { value: "", "data-unset": "1", text: "(not given)" }));
  options.forEach((o, i) => select.append(el("option", { value: String(i), text: o.text })));
  if (initial >= 0) select.value = String(initial);
  return {
    node: el("p", { class: "field" }, el("label", { for: id, text: title }),
      schema.description ? el("span", { class: "hint", text: ` ${schema.description.split("\n")[0]}` }) : null, select),
    read: () => {
      const opt = select.selectedOptions[0];
      if (!opt || opt.dataset.unset) return [false];
      return [true, options[Number(select.value)].value];
    },
  };
}

// One field: its control and a reader giving [present, value].
function field(root, name, raw, required) {
  let schema = resolve(root, raw);
  const inner = nullable(root, schema);
  if (inner) {
    const other = { ...inner, description: inner.description || schema.description, title: inner.title || schema.title };
    if (required && !("default" in schema)) {
      // Required, and null allowed: left unset, the field is sent as null.
      const f = field(root, name, other, false);
      return { node: f.node, read: () => { const got = f.read(); return got[0] ? got : [true, null]; } };
    }
    schema = other;
    required = false;
  }
  const id = fresh(name);
  const hint = schema.description ? el("span", { class: "hint", text: ` ${schema.description.split("\n")[0]}` }) : null;
  const wrap = (...controls) => el("p", { class: "field" }, el("label", { for: id, text: label(name, schema, required) }), hint, ...controls);

  // A value the rules fix: shown, not asked.
  const fixed = "const" in schema ? [schema.const] : Array.isArray(schema.enum) && schema.enum.length === 1 ? schema.enum : null;
  if (fixed) {
    const value = fixed[0];
    const empty = value === "" || (Array.isArray(value) && !value.length) || (value && typeof value === "object" && !Object.keys(value).length);
    const node = empty ? null : el("p", { class: "field fixed", "data-field": name, "data-kind": "fixed" },
      el("span", { class: "fixed-name", text: `${named(name)}: ` }), el("strong", { text: typeof value === "object" ? JSON.stringify(value) : shown(value) }));
    return { node, read: () => [true, value] };
  }

  if (schema.type === "array" && Array.isArray(schema.enum) && isHex(name, resolve(root, schema.items || {}))) {
    return hexField(root, name, schema, required, id, wrap, true);
  }
  if (isHex(name, schema)) return hexField(root, name, schema, required, id, wrap, false);

  const options = choicesOf(root, schema);
  if (options) return choiceField(name, schema, required, id, options);

  if (schema.type === "integer" || schema.type === "number") {
    const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : undefined);
    const max = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : undefined);
    const input = el("input", {
      id, name, type: "number", "data-field": name, "data-kind": "number", min, max,
      step: schema.type === "integer" ? 1 : "any", value: schema.default ?? undefined,
      required: required && !("default" in schema),
    });
    const bounds = min !== undefined && max !== undefined ? `${min} to ${max}` : min !== undefined ? `at least ${min}` : max !== undefined ? `at most ${max}` : "";
    return {
      node: wrap(input, bounds ? el("span", { class: "bounds", text: `(${bounds})` }) : null),
      read: () => {
        if (input.value === "") {
          if (required && !("default" in schema)) throw new Error(`${titled(name, schema.title)}: a number is required${bounds ? ` (${bounds})` : ""}`);
          return [false];
        }
        const n = Number(input.value);
        if (schema.type === "integer" && !Number.isInteger(n)) throw new Error(`${titled(name, schema.title)}: a whole number is required`);
        if ((min !== undefined && n < min) || (max !== undefined && n > max)) throw new Error(`${titled(name, schema.title)}: ${n} is outside ${bounds}`);
        return [true, n];
      },
    };
  }

  if (schema.type === "boolean") {
    const box = el("input", { id, name, type: "checkbox", "data-field": name, "data-kind": "bool", checked: schema.default === true });
    return { node: wrap(box), read: () => [true, box.checked] };
  }

  if (schema.type === "string") {
    const input = el("input", {
      id, name, type: "text", "data-field": name, "data-kind": "text", autocomplete: "off", spellcheck: "false",
      maxlength: schema.maxLength, minlength: schema.minLength, pattern: schema.pattern, value: schema.default ?? undefined,
      required: required && !("default" in schema),
    });
    return {
      node: wrap(input),
      read: () => {
        if (input.value === "" && (!required || "default" in schema)) return [false];
        if (schema.minLength && input.value.length < schema.minLength) throw new Error(`${titled(name, schema.title)}: at least ${schema.minLength} character${schema.minLength === 1 ? "" : "s"}`);
        if (schema.pattern && !new RegExp(schema.pattern).test(input.value)) throw new Error(`${titled(name, schema.title)}: "${input.value}" is not of the form ${schema.pattern}`);
        return [true, input.value];
      },
    };
  }

  if (schema.type === "array" && Array.isArray(schema.prefixItems)) return tupleField(root, name, schema, required, id);

  if (schema.type === "array" && Array.isArray(schema.enum)) {
    return choiceField(name, schema, required, id, schema.enum.map((v) => ({ value: v, text: shown(v) })));
  }

  if (schema.type === "array" && schema.maxItems === 0) {
    // A list the rules allow no item in now (Nightfighter's accelerate before any bomber
    // is on the map): said, not asked; it offered "+ Add" beside "at most 0".
    return {
      node: el("p", { class: "field fixed", "data-field": name, "data-kind": "fixed" },
        el("span", { class: "fixed-name", text: `${titled(name, schema.title)}: ` }), el("strong", { text: "none allowed now" })),
      read: () => (required || "default" in schema ? [true, []] : [false]),
    };
  }

  if (schema.type === "array") {
    const items = resolve(root, schema.items);
    if (Array.isArray(items.enum)) return multiField(name, schema, required, id, items, hint);
    return listField(root, name, schema, required, id, items, hint);
  }

  const variants = cases(root, schema);
  if (variants) {
    const built = caseFields(root, name, variants, (v) => valueOf(field(root, name, v, true)));
    return { node: el("fieldset", { class: "field", id, "data-field": name, "data-kind": "union" }, el("legend", { text: label(name, schema, required) }), built.node), read: () => [true, built.read()] };
  }

  if (schema.type === "object" && schema.properties) {
    const inner = objectFields(root, schema);
    const set = el("fieldset", { class: "field", id, "data-field": name, "data-kind": "object" }, el("legend", { text: label(name, schema, required) }), hint, ...inner.nodes);
    return { node: set, read: () => [true, inner.read()] };
  }

  // Anything else: JSON typed by hand (none of the shipped rulesets needs it).
  const area = el("textarea", { id, name, "data-field": name, "data-kind": "json", rows: 2, spellcheck: "false" });
  if ("default" in schema) area.value = JSON.stringify(schema.default);
  return {
    node: wrap(area),
    read: () => {
      if (area.value.trim() === "") {
        if (required) throw new Error(`${titled(name, schema.title)}: a value is required (JSON)`);
        return [false];
      }
      try {
        return [true, JSON.parse(area.value)];
      } catch {
        throw new Error(`${titled(name, schema.title)}: not valid JSON`);
      }
    },
  };
}

// A list of choices: a checkbox per value, with the list's bounds.
function multiField(name, schema, required, id, items, hint) {
  if (schema.minItems && schema.minItems >= items.enum.length) {
    // Every value, each once: fixed by the rules, shown, not asked.
    return {
      node: el("p", { class: "field fixed", "data-field": name, "data-kind": "fixed" },
        el("span", { class: "fixed-name", text: `${named(name)}: ` }), el("strong", { text: items.enum.map(shown).join(", ") })),
      read: () => [true, [...items.enum]],
    };
  }
  const chosen = new Set(Array.isArray(schema.default) ? schema.default : []);
  const boxes = items.enum.map((v, i) => {
    const box = el("input", { type: "checkbox", id: `${id}-${i}`, "data-field": name, value: String(i), checked: chosen.has(v) });
    return el("label", { class: "choice" }, box, ` ${shown(v)}`);
  });
  // A bound no choice can reach is no bound ("at most 200" of 9 bombers): left unsaid.
  const most = schema.maxItems && schema.maxItems < items.enum.length ? schema.maxItems : 0;
  const bounds = [schema.minItems ? `at least ${schema.minItems}` : "", most ? `at most ${most}` : ""].filter(Boolean).join(", ");
  const set = el("fieldset", {
    class: "field", id, "data-field": name, "data-kind": "multi", "data-min": schema.minItems ?? 0, "data-max": schema.maxItems ?? items.enum.length,
  }, el("legend", { text: `${label(name, schema, required)}${bounds ? `: ${bounds}` : ""}` }), hint, ...boxes);
  return {
    node: set,
    read: () => {
      const values = [...set.querySelectorAll("input:checked")].map((b) => items.enum[Number(b.value)]);
      if (schema.minItems && values.length < schema.minItems) throw new Error(`${titled(name, schema.title)}: choose at least ${schema.minItems}`);
      if (schema.maxItems && values.length > schema.maxItems) throw new Error(`${titled(name, schema.title)}: choose at most ${schema.maxItems}`);
      if (!values.length && !required) return [false];
      return [true, values];
    },
  };
}

// A fixed-length list whose places have their own schemas (a position [column, row]).
// Two whole numbers are a point of a diagram's board ([column, row], as its points carry
// them in data-hex): named so ("Position: column"), not "Position[0]", and filled by a
// click on a point of the board once the field has focus, as a hex field is.
function tupleField(root, name, schema, required, id) {
  const point = schema.prefixItems.length === 2 && schema.prefixItems.every((s) => s.type === "integer");
  const place = (i) => (point ? ["column", "row"][i] : `place ${i + 1}`);
  const places = schema.prefixItems.map((s, i) =>
    field(root, `${name}[${i}]`, { ...s, title: s.title || `${titled(name, schema.title)}: ${place(i)}` }, true));
  const hint = point ? el("span", { class: "hint", text: " or click a point on the board" }) : null;
  const set = el("fieldset", { class: "field tuple", id, "data-field": name, "data-kind": "tuple" },
    el("legend", {}, label(name, schema, required), hint), ...places.map((p) => p.node).filter(Boolean));
  if (point) {
    const inputs = () => [...set.querySelectorAll("input")];
    const me = {
      input: set,
      pick: (picked) => {
        let at;
        try {
          at = JSON.parse(picked);
        } catch {
          return;
        }
        if (!Array.isArray(at) || at.length !== 2) return;
        inputs().forEach((input, i) => {
          input.value = String(at[i]);
          input.dispatchEvent(new Event("input", { bubbles: true }));
        });
      },
    };
    set.addEventListener("focusin", () => {
      if (activeHex !== me) highlight([]);
      activeHex = me;
    });
  }
  return { node: set, read: () => [true, places.map((p) => p.read()[1])] };
}

// A list of records (or of free values): rows to add and remove, each the item's fields.
function listField(root, name, schema, required, id, items, hint) {
  const min = schema.minItems || 0;
  const max = schema.maxItems ?? Infinity;
  const rows = [];
  const body = el("ol", { class: "rows" });
  const add = el("button", { type: "button", class: "small add-row", "data-kind": "add", text: `+ Add ${singular(name)}` });
  const bounds = [min ? `at least ${min}` : "", Number.isFinite(max) ? `at most ${max}` : ""].filter(Boolean).join(", ");
  const set = el("fieldset", { class: "field list", id, "data-field": name, "data-kind": "list", "data-min": min, "data-max": Number.isFinite(max) ? max : 64 },
    el("legend", { text: `${label(name, schema, required)}${bounds ? `: ${bounds}` : ""}` }), hint, body, add);
  const refresh = () => {
    add.disabled = rows.length >= max;
    rows.forEach((row, i) => {
      row.number.textContent = `${singular(name)} ${i + 1}`;
      row.remove.disabled = rows.length <= min;
    });
  };
  const addRow = () => {
    const variants = cases(root, items);
    const one = (v) => (v.type === "object" || v.properties ? objectOf(root, v) : valueOf(field(root, singular(name), v, true)));
    const built = variants ? caseFields(root, `${name}-item`, variants, one) : one(items);
    const number = el("span", { class: "row-number" });
    const remove = el("button", { type: "button", class: "small remove-row", "data-kind": "remove", text: "Remove" });
    const li = el("li", { class: "row" }, el("p", { class: "row-head" }, number, " ", remove), built.node);
    const row = { li, number, remove, read: built.read };
    remove.addEventListener("click", () => {
      if (rows.length <= min) return;
      rows.splice(rows.indexOf(row), 1);
      li.remove();
      refresh();
    });
    rows.push(row);
    body.append(li);
    refresh();
    const first = li.querySelector("input, select");
    if (first && document.activeElement === add) first.focus();
  };
  add.addEventListener("click", addRow);
  for (let i = 0; i < min; i += 1) addRow();
  refresh();
  return {
    node: set,
    read: () => {
      const values = rows.map((row) => row.read());
      if (!values.length && !required && !("default" in schema)) return [false];
      return [true, values];
    },
  };
}

// A field's reader as a plain value (a row, a case): always given.
const valueOf = (f) => ({ node: f.node, read: () => f.read()[1] });

const singular = (name) => (name.endsWith("ies") ? `${name.slice(0, -3)}y` : name.endsWith("s") ? name.slice(0, -1) : name);

function objectOf(root, schema, command = false) {
  const inner = objectFields(root, schema, command);
  return { node: el("div", { class: "fields" }, ...inner.nodes), read: inner.read };
}

// `command`: the fields of a whole command, whose `type` is the action's own (its box says
// it): sent, never shown as a field ("Type: MoveBombers" read as a form field in code).
function objectFields(root, schema, command = false) {
  const required = new Set(schema.required || []);
  const fields = Object.entries(schema.properties || {}).map(([name, sub]) => [name, field(root, name, sub, required.has(name))]);
  return {
    nodes: fields.filter(([name]) => !(command && name === "type")).map(([, f]) => f.node).filter(Boolean),
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

// What tells one case from the others: the values its narrowed fields allow, shortly.
function variantName(root, variant, i, all) {
  const parts = [];
  const props = resolve(root, variant).properties || {};
  for (const [name, raw] of Object.entries(props)) {
    const s = resolve(root, raw);
    const values = "const" in s ? [s.const] : s.enum || (s.items && resolve(root, s.items).enum);
    if (name === "type" || !values || values.length > 3) continue;
    const same = all.every((other) => JSON.stringify((resolve(root, other).properties || {})[name]) === JSON.stringify(raw));
    // The field by its title or in words, as its own label says it (no snake_case key).
    if (!same) parts.push(`${titled(name, s.title)}: ${values.map(shown).join("/")}`);
  }
  return parts.join(", ").slice(0, 80) || `case ${i + 1}`;
}

// A choice of case, then that case's fields (the other cases' fields hidden).
function caseFields(root, name, variants, build) {
  const id = fresh(`${name}-case`);
  const picker = el("select", { id, "data-field": "variant", "data-kind": "variant" });
  variants.forEach((v, i) => picker.append(el("option", { value: String(i), text: variantName(root, v, i, variants) })));
  const built = variants.map((v) => build(v));
  const panes = built.map((b, i) => el("div", { class: "variant", hidden: i !== 0, "data-variant": i }, b.node));
  picker.addEventListener("change", () => panes.forEach((p, i) => { p.hidden = i !== Number(picker.value); }));
  const only = variants.length === 1;
  return {
    node: el("div", { class: "cases" }, only ? null : el("p", { class: "field" }, el("label", { for: id, text: "Which case" }), picker), ...panes),
    read: () => built[Number(picker.value)].read(),
  };
}

// The kinds of a roll of the player's own whose number of dice `count` sets (the rest are
// one roll of their own dice), as engine/handling.py's RollDice check says.
const COUNTED = new Set(["d6", "nd6", "custom"]);

// What is wrong with a roll of the player's own that the listed schema's `not` leaves out
// (engine/actions.py _ROLL_UNUSED): a field its kind of dice does not use, which the
// server would refuse. Said as the form labels the fields, with what to do instead.
function unusedRollField(command) {
  const dice = String(command.dice);
  if (command.sides !== undefined && command.sides !== 6 && dice !== "custom") {
    return `Sides counts for custom dice only: ${dice} dice have their own number of sides. ` +
      `Choose custom dice to roll dice of ${command.sides} sides, or set Sides back to 6`;
  }
  if (command.count !== undefined && command.count !== 1 && !COUNTED.has(dice)) {
    return `Count counts for d6, nd6 and custom dice only: ${dice} is one roll of its own dice. ` +
      `Choose nd6 (or custom dice) to roll ${command.count} dice, or set Count back to 1`;
  }
  return null;
}

// A reader that says so before sending a command the schema's `not` leaves out: a roll's
// field its dice do not use, or a report of the game as it already is.
const guarded = (schema, read) => () => {
  const command = read();
  if (schema.not && accepts(schema.not, command)) {
    const type = schema.properties?.type?.const;
    const unused = type === "RollDice" ? unusedRollField(command) : null;
    throw new Error(unused || "this is what the game holds already, so it would change nothing: change a field");
  }
  return command;
};

// A form's fields for a command schema (an object, or an anyOf of objects).
export function commandFields(schema) {
  const root = schema;
  const variants = schema.anyOf ? schema.anyOf.map((v) => resolve(root, v)) : null;
  if (!variants) {
    const only = objectFields(root, resolve(root, schema), true);
    return { node: el("div", { class: "fields" }, ...only.nodes), read: guarded(schema, only.read) };
  }
  const built = caseFields(root, "command", variants, (v) => objectOf(root, v, true));
  return { node: el("div", { class: "fields" }, built.node), read: guarded(schema, built.read) };
}

// The scenario settings a new game may change (a ruleset's setup schema, /rulesets.json):
// its plain top-level values (numbers, yes/no, choices), each left unset unless the player
// sets it, so only what was changed is laid over the scenario's own setup.
export function settingsFields(schema) {
  const root = schema || {};
  const node = resolve(root, root);
  const props = {};
  for (const [name, raw] of Object.entries(node.properties || {})) {
    const s = resolve(root, raw);
    const plain = ["integer", "number"].includes(s.type) || s.type === "boolean" || Array.isArray(s.enum);
    if (!plain) continue;
    const { default: was, ...rest } = s;
    const hint = was === undefined ? "" : `default ${JSON.stringify(was)}`;
    props[name] = {
      ...(s.type === "boolean" ? { enum: [true, false] } : rest),
      description: [s.description && s.description.split("\n")[0], hint].filter(Boolean).join("; "),
    };
  }
  const only = objectFields(root, { properties: props, required: [] });
  return { node: el("div", { class: "fields" }, ...only.nodes), read: only.read, count: Object.keys(props).length };
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
