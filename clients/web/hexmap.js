// A hex map (SVG) of whatever a state places on CCRR hexes: every object with a `hex`
// field like "1020" (column 10, row 20) becomes a labelled counter on its hex.
// Columns are flat-topped and odd columns sit half a hex lower, as printed wargame maps
// number them. Labels are text, so the map reads without colour.

const SVG = "http://www.w3.org/2000/svg";
const HEX = /^\d{4}$/;
const MAX_SPAN = 40; // beyond this many columns or rows only the occupied hexes are drawn

function collect(value, out, path) {
  if (Array.isArray(value)) value.forEach((v, i) => collect(v, out, `${path}[${i}]`));
  else if (value && typeof value === "object") {
    if (typeof value.hex === "string" && HEX.test(value.hex)) {
      const label = value.id ?? value.name ?? value.kind ?? path;
      out.push({ hex: value.hex, label: String(label), where: path });
    }
    for (const [k, v] of Object.entries(value)) if (k !== "hex") collect(v, out, path ? `${path}.${k}` : k);
  }
  return out;
}

function node(tag, attrs, text) {
  const n = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
  if (text !== undefined) n.textContent = text;
  return n;
}

export function hexMap(state) {
  const counters = collect(state, [], "");
  if (!counters.length) return null;
  const cols = counters.map((c) => Number(c.hex.slice(0, 2)));
  const rows = counters.map((c) => Number(c.hex.slice(2)));
  const [c0, c1] = [Math.max(Math.min(...cols) - 1, 0), Math.max(...cols) + 1];
  const [r0, r1] = [Math.max(Math.min(...rows) - 1, 0), Math.max(...rows) + 1];
  const full = c1 - c0 <= MAX_SPAN && r1 - r0 <= MAX_SPAN;
  const size = 22;
  const w = size * 1.5;
  const h = size * Math.sqrt(3);
  const centre = (c, r) => [(c - c0) * w + size + 2, (r - r0) * h + (c % 2 ? h : h / 2) + 2];
  const corners = (x, y) => [0, 1, 2, 3, 4, 5].map((i) => {
    const a = (Math.PI / 3) * i;
    return `${(x + size * Math.cos(a)).toFixed(1)},${(y + size * Math.sin(a)).toFixed(1)}`;
  }).join(" ");
  const width = (c1 - c0) * w + size * 2 + 4;
  const height = (r1 - r0 + 1) * h + h / 2 + 4;
  const svg = node("svg", {
    viewBox: `0 0 ${width.toFixed(0)} ${height.toFixed(0)}`, class: "hexmap", role: "img",
    "aria-label": `Hex map: ${counters.map((c) => `${c.label} in ${c.hex}`).join(", ")}`,
  });
  const byHex = new Map();
  for (const c of counters) byHex.set(c.hex, [...(byHex.get(c.hex) || []), c]);
  const hexes = full
    ? Array.from({ length: c1 - c0 + 1 }, (_, i) => c0 + i).flatMap((c) =>
      Array.from({ length: r1 - r0 + 1 }, (_, j) => [c, r0 + j]))
    : [...byHex.keys()].map((k) => [Number(k.slice(0, 2)), Number(k.slice(2))]);
  for (const [c, r] of hexes) {
    const [x, y] = centre(c, r);
    const id = `${String(c).padStart(2, "0")}${String(r).padStart(2, "0")}`;
    const here = byHex.get(id);
    svg.append(node("polygon", { points: corners(x, y), class: here ? "hex occupied" : "hex" }));
    svg.append(node("text", { x: x.toFixed(1), y: (y - size * 0.55).toFixed(1), class: "hexid" }, id));
    if (here) {
      const text = here.map((h) => h.label).join(" ");
      svg.append(node("text", { x: x.toFixed(1), y: (y + 4).toFixed(1), class: "counter" },
        text.length > 9 ? `${text.slice(0, 8)}…` : text));
      svg.lastChild.append(node("title", {}, here.map((h) => `${h.label} (${h.where})`).join("\n")));
    }
  }
  const figure = document.createElement("figure");
  figure.className = "map";
  const caption = document.createElement("figcaption");
  caption.textContent = `Map: ${counters.length} counters on hexes (hover a counter for its name)`;
  figure.append(svg, caption);
  return figure;
}
