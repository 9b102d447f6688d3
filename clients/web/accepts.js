// Whether a value meets a JSON Schema, for the subset the legal actions use (the same as
// engine/schemas.py `accepts`: const, enum, anyOf, allOf, not, types, bounds, lengths,
// patterns, array sizes, uniqueItems, contains, prefixItems, items, required, properties).
// The forms use it to tell, before sending, a command the schema's `not` leaves out: one
// that restates the game as it stands and would change nothing (issue 41 item 8), for a
// `not` of whole commands and for one no command says alone (Downtown's US side as it
// stands: the same flights in any order).

const same = (a, b) => {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (a && b && typeof a === "object" && typeof b === "object" && !Array.isArray(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && same(a[k], b[k]));
  }
  return false;
};

const isType = (kind, v) => {
  switch (kind) {
    case "string": return typeof v === "string";
    case "boolean": return typeof v === "boolean";
    case "null": return v === null;
    case "array": return Array.isArray(v);
    case "object": return v !== null && typeof v === "object" && !Array.isArray(v);
    case "number": return typeof v === "number";
    case "integer": return Number.isInteger(v);
    default: return true;
  }
};

export function accepts(schema, value) {
  if (!schema || typeof schema !== "object") return true;
  if (schema.not && accepts(schema.not, value)) return false;
  if ("const" in schema && !same(schema.const, value)) return false;
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => same(e, value))) return false;
  if (Array.isArray(schema.anyOf) && !schema.anyOf.some((s) => accepts(s, value))) return false;
  const kinds = schema.type === undefined ? [] : [].concat(schema.type);
  if (kinds.length && !kinds.some((k) => isType(k, value))) return false;
  if (typeof value === "number") {
    if ("minimum" in schema && value < schema.minimum) return false;
    if ("maximum" in schema && value > schema.maximum) return false;
    if ("exclusiveMinimum" in schema && value <= schema.exclusiveMinimum) return false;
    if ("exclusiveMaximum" in schema && value >= schema.exclusiveMaximum) return false;
  }
  if (typeof value === "string") {
    if (value.length < (schema.minLength ?? 0) || value.length > (schema.maxLength ?? Infinity)) return false;
    if (schema.pattern && !new RegExp(schema.pattern, "u").test(value)) return false;
  }
  if ((schema.allOf || []).some((s) => !accepts(s, value))) return false;
  if (Array.isArray(value)) {
    if (value.length < (schema.minItems ?? 0) || value.length > (schema.maxItems ?? Infinity)) return false;
    if (schema.uniqueItems && value.some((v, i) => value.slice(0, i).some((w) => same(v, w)))) return false;
    if (schema.contains) {
      const hits = value.filter((v) => accepts(schema.contains, v)).length;
      if (hits < (schema.minContains ?? 1) || hits > (schema.maxContains ?? hits)) return false;
    }
    const prefix = schema.prefixItems || [];
    if (prefix.some((s, i) => i < value.length && !accepts(s, value[i]))) return false;
    if (schema.items && !value.slice(prefix.length).every((v) => accepts(schema.items, v))) return false;
  }
  if (isType("object", value)) {
    if ((schema.required || []).some((k) => !(k in value))) return false;
    const props = schema.properties || {};
    if (Object.entries(value).some(([k, v]) => k in props && !accepts(props[k], v))) return false;
  }
  return true;
}
