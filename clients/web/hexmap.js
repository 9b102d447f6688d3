// The hex map (SVG) a ruleset declares (engine/map_view.py, a state frame's `map`): its
// grid's layout and which columns sit half a hex lower come from the ruleset, never from a
// guess here; terrain, targets and zones are drawn from the map data; only the pieces on
// the map now are drawn. Every hex polygon carries its label and centre (data-hex,
// data-cx, data-cy), which the adjacency test compares with the engine's neighbours.
// Labels are text, so the map reads without colour.

const SVG = "http://www.w3.org/2000/svg";
const SIZE = 22; // centre to corner
const MAX_HEXES = 2500; // beyond this only the hexes with something on them are drawn

function node(tag, attrs, text) {
  const n = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
  if (text !== undefined) n.textContent = text;
  return n;
}

// The hexes a form field allows now (forms.js sends "umpire:highlight" when a hex field
// takes focus, an empty list to clear): marked on every map drawn, now and later.
let lit = new Set();
document.addEventListener("umpire:highlight", (event) => {
  lit = new Set((event.detail && event.detail.hexes) || []);
  for (const poly of document.querySelectorAll("svg.hexmap [data-hex]")) poly.classList.toggle("allowed", lit.has(poly.dataset.hex));
});

const label = (c, r) => `${String(c).padStart(2, "0")}${String(r).padStart(2, "0")}`;

// Flat-topped hexes in vertical columns; the declared parity says which columns are lower.
export function geometry(grid) {
  const w = SIZE * 1.5;
  const h = SIZE * Math.sqrt(3);
  const lower = (c) => (grid.parity === "even_down" ? c % 2 === 0 : c % 2 !== 0);
  const centre = (c, r) => [
    (c - grid.min_col) * w + SIZE + 2,
    (r - grid.min_row) * h + h / 2 + (lower(c) ? h / 2 : 0) + 2,
  ];
  const width = (grid.max_col - grid.min_col) * w + SIZE * 2 + 4;
  const height = (grid.max_row - grid.min_row + 1) * h + h / 2 + 4;
  return { centre, width, height };
}

function corners(x, y) {
  return [0, 1, 2, 3, 4, 5].map((i) => {
    const a = (Math.PI / 3) * i;
    return `${(x + SIZE * Math.cos(a)).toFixed(1)},${(y + SIZE * Math.sin(a)).toFixed(1)}`;
  }).join(" ");
}

export function hexMap(map) {
  if (!map || !map.grid) return null;
  const { grid } = map;
  const { centre, width, height } = geometry(grid);
  const pieces = map.pieces || [];
  const features = map.features || [];
  const byHex = new Map();
  for (const p of pieces) byHex.set(p.hex, [...(byHex.get(p.hex) || []), p]);
  const featureAt = new Map();
  for (const f of features) for (const hex of f.hexes) featureAt.set(hex, [...(featureAt.get(hex) || []), f]);
  const svg = node("svg", {
    viewBox: `0 0 ${width.toFixed(0)} ${height.toFixed(0)}`, class: "hexmap", role: "img",
    "data-parity": grid.parity,
    "aria-label": `Hex map: ${pieces.length ? pieces.map((p) => `${p.id} in ${p.hex}`).join(", ") : "nothing on the map"}` +
      (features.length ? `; ${features.map((f) => `${f.label} (${f.hexes.join(" ")})`).join("; ")}` : ""),
  });
  const cols = grid.max_col - grid.min_col + 1;
  const rows = grid.max_row - grid.min_row + 1;
  const hexes = [];
  if (cols * rows <= MAX_HEXES) {
    for (let c = grid.min_col; c <= grid.max_col; c += 1) for (let r = grid.min_row; r <= grid.max_row; r += 1) hexes.push([c, r]);
  } else {
    for (const key of new Set([...byHex.keys(), ...featureAt.keys()])) hexes.push([Number(key.slice(0, 2)), Number(key.slice(2))]);
  }
  const top = [];
  for (const [c, r] of hexes) {
    const [x, y] = centre(c, r);
    const id = label(c, r);
    const here = byHex.get(id);
    const marks = featureAt.get(id) || [];
    const kinds = [...new Set(marks.map((f) => f.kind))];
    const poly = node("polygon", {
      points: corners(x, y), class: ["hex", here ? "occupied" : "", lit.has(id) ? "allowed" : "", ...kinds].filter(Boolean).join(" "),
      "data-hex": id, "data-cx": x.toFixed(2), "data-cy": y.toFixed(2),
    });
    if (marks.length) poly.append(node("title", {}, `${id}: ${marks.map((f) => f.label).join("; ")}`));
    svg.append(poly);
    svg.append(node("text", { x: x.toFixed(1), y: (y - SIZE * 0.55).toFixed(1), class: "hexid" }, id));
    if (kinds.length) {
      const sign = kinds.map((k) => ({ terrain: "▲", target: "◎", zone: "◇" }[k])).join("");
      svg.append(node("text", { x: (x - SIZE * 0.55).toFixed(1), y: (y + SIZE * 0.6).toFixed(1), class: "feature" }, sign));
    }
    if (here) {
      const text = here.map((p) => p.id).join(" ");
      const t = node("text", { x: x.toFixed(1), y: (y + 4).toFixed(1), class: "counter", "data-piece": here.map((p) => p.id).join(" ") },
        text.length > 9 ? `${text.slice(0, 8)}…` : text);
      t.append(node("title", {}, here.map((p) => `${p.id} (${[p.side, p.note].filter(Boolean).join(", ")}) in ${id}`).join("\n")));
      top.push(t);
    }
  }
  svg.append(...top);
  // A click on a hex says which (document event "umpire:hex"): a focused hex field takes it.
  svg.addEventListener("click", (event) => {
    const hex = event.target.closest("[data-hex]");
    if (hex) document.dispatchEvent(new CustomEvent("umpire:hex", { detail: { hex: hex.dataset.hex } }));
  });
  const figure = document.createElement("figure");
  figure.className = "map";
  const caption = document.createElement("figcaption");
  caption.textContent = `Map: ${pieces.length} piece${pieces.length === 1 ? "" : "s"} on the map; ` +
    "▲ terrain, ◎ target, ◇ zone (hover a hex or a piece for its name)";
  const legend = document.createElement("ul");
  legend.className = "map-features";
  for (const f of features) {
    const li = document.createElement("li");
    li.textContent = `${{ terrain: "▲", target: "◎", zone: "◇" }[f.kind]} ${f.label}: ${f.hexes.join(" ")}`;
    legend.append(li);
  }
  figure.append(svg, caption);
  if (features.length) figure.append(legend);
  return figure;
}
