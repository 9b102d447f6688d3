// The hex map (SVG) a ruleset declares (engine/map_view.py, a state frame's `map`): its
// grid's layout and which columns sit half a hex lower come from the ruleset, never from a
// guess here; terrain, targets and zones are drawn (and filled) from the map data; only the
// pieces on the map now are drawn, coloured by side (the ruleset names the player's sides),
// with their full label, facing and altitude where they have them. Every hex polygon
// carries its label and centre (data-hex, data-cx, data-cy), which the adjacency test
// compares with the engine's neighbours.
//
// Playing on it: a click on a hex sends `umpire:hex` ({hex}) on the document (the forms'
// hex picker listens); `umpire:highlight` ({hexes}) marks the hexes a form allows
// (class `allowed`; an empty list clears them). Pan and zoom: panzoom.js; hex labels
// show once zoomed in. The opponent's last move (the pieces of the other sides that moved
// or appeared since the previous state shown) is outlined, with a trail from where it was.
// Everything is also said in words (titles, the caption), so the map reads without colour.
import { panZoom } from "./panzoom.js";

const SVG = "http://www.w3.org/2000/svg";
const SIZE = 22; // centre to corner
const MAX_HEXES = 2500; // beyond this only the hexes with something on them are drawn
const LABELS_AT = 20; // px from centre to corner at which hex labels are shown (7 px text)
const READABLE = 1.1; // px per SVG unit a new map opens at, at least (Downtown's 40×50)
const BIG_MAP = 600; // hexes beyond which the map gets an overview inset
const FAR_AT = 9; // px from centre to corner below which piece labels and signs are hidden

// The overview of a big map: the whole board small, its pieces as dots, and the part
// shown in the pane as a frame (moved by `show(view)`).
function overview(width, height, pieces) {
  const svg = node("svg", { viewBox: `0 0 ${width.toFixed(0)} ${height.toFixed(0)}`, class: "inset", role: "img", "aria-label": "Overview of the whole map; click to go there" });
  svg.append(node("rect", { x: 0, y: 0, width: width.toFixed(0), height: height.toFixed(0), class: "inset-board" }));
  for (const p of pieces) {
    svg.append(node("circle", { cx: p.at[0].toFixed(0), cy: p.at[1].toFixed(0), r: SIZE * 1.6, class: p.own ? "own" : "other" }));
  }
  const frame = node("rect", { class: "inset-view", x: 0, y: 0, width: width.toFixed(0), height: height.toFixed(0) });
  svg.append(frame);
  return {
    node: svg,
    show: (view) => {
      frame.setAttribute("x", view.x.toFixed(0));
      frame.setAttribute("y", view.y.toFixed(0));
      frame.setAttribute("width", view.w.toFixed(0));
      frame.setAttribute("height", view.h.toFixed(0));
    },
  };
}

export function node(tag, attrs, text) {
  const n = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) n.setAttribute(k, v);
  if (text !== undefined) n.textContent = text;
  return n;
}

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

// The fill of a hex from what is printed on it (terrain first, then a zone), by the
// feature's own words; the kind is also a class and a symbol, so colour is never alone.
const FILLS = [
  [/sea|lake|pond|river|water/i, "#b9ddf2"],
  [/wood|forest|orchard/i, "#b5d9a8"],
  [/building|town|village|city/i, "#d3cbc0"],
  [/wall|hedge/i, "#cdb894"],
  [/ridge|hill/i, "#e6d3a3"],
  [/airfield/i, "#dedede"],
  [/downtown/i, "#f4c9c4"],
  [/barrage/i, "#f8dfc0"],
  [/searchlight/i, "#fbf1b5"],
  [/china/i, "#e8e2f0"],
  [/entry/i, "#cfe0f5"],
];
function fillOf(marks) {
  const ordered = [...marks.filter((f) => f.kind === "terrain"), ...marks.filter((f) => f.kind === "zone")];
  for (const f of ordered) for (const [re, colour] of FILLS) if (re.test(f.label)) return colour;
  if (ordered.length) return ordered[0].kind === "terrain" ? "#e8e3cc" : "#f3ecd8";
  return null;
}

// The hexes a form allows now (forms.js sends them): kept across re-renders of the map.
let allowed = new Set();
function markAllowed(root = document) {
  for (const hex of root.querySelectorAll(".hexmap .hex")) hex.classList.toggle("allowed", allowed.has(hex.dataset.hex));
}
document.addEventListener("umpire:highlight", (event) => {
  allowed = new Set((event.detail && event.detail.hexes) || []);
  markAllowed();
  // The view stays where the reader left it, so the hexes a field asks for may all be out
  // of it (the fighter flew on): the map then frames them (panzoom.js "umpire:show").
  for (const svg of document.querySelectorAll("svg.hexmap")) {
    const points = [...svg.querySelectorAll(".hex.allowed")].map((h) => ({ x: Number(h.dataset.cx), y: Number(h.dataset.cy) }));
    if (points.length) svg.dispatchEvent(new CustomEvent("umpire:show", { detail: { points } }));
  }
});

const isPlayer = (map, side) => (map.player_sides || []).includes(side);

// The opponent's last move: its pieces that moved or appeared since `previous` was shown.
// A piece the player's own command put where it is (`reported`: the values the player's
// commands since then gave, a report naming the piece and its new hex: Conflict of
// Heroes' ReportPosition) is the player's report (`reported: true`), not the opponent's.
export function lastMove(map, previous, reported = new Set()) {
  if (!previous || !previous.pieces) return [];
  const before = new Map(previous.pieces.map((p) => [p.id, p.hex]));
  return (map.pieces || [])
    .filter((p) => !isPlayer(map, p.side) && before.get(p.id) !== p.hex)
    .map((p) => ({ id: p.id, from: before.get(p.id) || null, to: p.hex, reported: reported.has(p.id) && reported.has(p.hex) }));
}

const moveSaid = (m) => (m.from ? `${m.id} ${m.from} → ${m.to}` : `${m.id} appeared in ${m.to}`);

function piece(p, x, y, own, moved, scaleDown, labelAbove = false) {
  const r = SIZE * 0.5 * scaleDown;
  const g = node("g", {
    class: ["piece", own ? "own" : "other", moved ? "moved" : ""].filter(Boolean).join(" "),
    "data-piece": p.id, "data-at": p.hex, "data-side": p.side,
  });
  g.append(node("title", {}, `${p.id} (${[p.side, p.note].filter(Boolean).join(", ")}) in ${p.hex}` +
    (moved ? ", the opponent's last move" : "")));
  if (moved) g.append(node("circle", { cx: x.toFixed(1), cy: y.toFixed(1), r: (r + 4).toFixed(1), class: "halo" }));
  g.append(node("rect", {
    x: (x - r).toFixed(1), y: (y - r).toFixed(1), width: (2 * r).toFixed(1), height: (2 * r).toFixed(1), rx: 3,
    class: "chip", fill: own ? "#2b5ea7" : "#b8322a",
  }));
  if (p.facing !== null && p.facing !== undefined) {
    // A pointer on the side of the chip it faces (hexgrid directions: 0 N, clockwise).
    const tip = r + 5 * scaleDown;
    g.append(node("polygon", {
      points: `${x},${(y - tip).toFixed(1)} ${(x - 4 * scaleDown).toFixed(1)},${(y - r + 1).toFixed(1)} ${(x + 4 * scaleDown).toFixed(1)},${(y - r + 1).toFixed(1)}`,
      class: "facing", transform: `rotate(${(p.facing % 6) * 60} ${x.toFixed(1)} ${y.toFixed(1)})`,
      "data-facing": p.facing,
    }));
  }
  // The whole label, never clipped: its size fits the hex's width.
  const size = Math.min(8, (SIZE * 2.4) / Math.max(1, p.id.length * 0.6)) * Math.max(scaleDown, 0.8);
  const labelY = labelAbove ? y - r - 2 - (p.facing !== null && p.facing !== undefined ? 4 : 0) : y + r + size;
  g.append(node("text", { x: x.toFixed(1), y: labelY.toFixed(1), class: "counter", "font-size": size.toFixed(1) }, p.id));
  if (p.altitude) {
    g.append(node("text", { x: x.toFixed(1), y: (y + 2.5).toFixed(1), class: "altitude", "font-size": (7 * scaleDown).toFixed(1) },
      p.altitude.slice(0, 3).toUpperCase()));
  }
  return g;
}

/**
 * The map of a state frame, with its tools; null when the frame has no hex map.
 * @param {object} map  the state frame's `map` (engine/map_view.py MapView)
 * @param {{previous?: object|null, reported?: Set<string>}} [o]  the map of the state shown
 *   before (the last move), and the values of the player's commands since (its reports)
 */
export function hexMap(map, { previous = null, reported = new Set() } = {}) {
  if (!map || !map.grid) return null;
  const { grid } = map;
  const { centre, width, height } = geometry(grid);
  const pieces = map.pieces || [];
  const features = map.features || [];
  const byHex = new Map();
  for (const p of pieces) byHex.set(p.hex, [...(byHex.get(p.hex) || []), p]);
  const featureAt = new Map();
  for (const f of features) for (const hex of f.hexes) featureAt.set(hex, [...(featureAt.get(hex) || []), f]);
  const changes = lastMove(map, previous, reported);
  const moves = changes.filter((m) => !m.reported);
  const yours = changes.filter((m) => m.reported);
  const movedIds = new Set(moves.map((m) => m.id));
  const svg = node("svg", {
    viewBox: `0 0 ${width.toFixed(0)} ${height.toFixed(0)}`, class: "hexmap", role: "img",
    "data-parity": grid.parity,
    "aria-label": `Hex map: ${pieces.length ? pieces.map((p) => `${p.id} in ${p.hex}`).join(", ") : "nothing on the map"}` +
      (features.length ? `; ${features.map((f) => `${f.label} (${f.hexes.join(" ")})`).join("; ")}` : ""),
  });
  // As tall as the board's shape (CSSOM, which the page's CSP allows; a style attribute
  // it would block).
  svg.style.aspectRatio = `${width.toFixed(0)} / ${height.toFixed(0)}`;
  const cols = grid.max_col - grid.min_col + 1;
  const rows = grid.max_row - grid.min_row + 1;
  const hexes = [];
  if (cols * rows <= MAX_HEXES) {
    for (let c = grid.min_col; c <= grid.max_col; c += 1) for (let r = grid.min_row; r <= grid.max_row; r += 1) hexes.push([c, r]);
  } else {
    for (const key of new Set([...byHex.keys(), ...featureAt.keys()])) hexes.push([Number(key.slice(0, 2)), Number(key.slice(2))]);
  }
  const ground = node("g", { class: "ground" });
  const ids = node("g", { class: "hexids" });
  const signs = node("g", { class: "features" });
  const top = node("g", { class: "pieces" });
  const from = new Set(moves.map((m) => m.from).filter(Boolean));
  for (const [c, r] of hexes) {
    const [x, y] = centre(c, r);
    const id = label(c, r);
    const marks = featureAt.get(id) || [];
    const kinds = [...new Set(marks.map((f) => f.kind))];
    const poly = node("polygon", {
      points: corners(x, y),
      class: ["hex", byHex.has(id) ? "occupied" : "", from.has(id) ? "moved-from" : "", ...kinds].filter(Boolean).join(" "),
      "data-hex": id, "data-cx": x.toFixed(2), "data-cy": y.toFixed(2), fill: fillOf(marks) || "#fbfaf6",
    });
    poly.append(node("title", {}, marks.length ? `${id}: ${marks.map((f) => f.label).join("; ")}` : id));
    ground.append(poly);
    ids.append(node("text", { x: x.toFixed(1), y: (y - SIZE * 0.62).toFixed(1), class: "hexid" }, id));
    if (kinds.length) {
      const sign = kinds.map((k) => ({ terrain: "▲", target: "◎", zone: "◇" }[k])).join("");
      signs.append(node("text", { x: (x - SIZE * 0.62).toFixed(1), y: (y + SIZE * 0.62).toFixed(1), class: "feature" }, sign));
    }
  }
  for (const [hex, here] of byHex) {
    const c = Number(hex.slice(0, 2));
    const r = Number(hex.slice(2));
    if (!Number.isFinite(c) || !Number.isFinite(r)) continue;
    const [x, y] = centre(c, r);
    const shrink = here.length > 1 ? 0.7 : 1;
    here.forEach((p, i) => {
      const dx = here.length > 1 ? (i - (here.length - 1) / 2) * SIZE * 0.95 : 0;
      top.append(piece(p, x + dx, y - 4, isPlayer(map, p.side), movedIds.has(p.id), shrink, i % 2 === 1));
    });
  }
  const trails = node("g", { class: "trails" });
  let action = null;
  for (const m of moves) {
    const to = centre(Number(m.to.slice(0, 2)), Number(m.to.slice(2)));
    action = action || { x: to[0], y: to[1] };
    if (!m.from) continue;
    const at = centre(Number(m.from.slice(0, 2)), Number(m.from.slice(2)));
    trails.append(node("line", { x1: at[0].toFixed(1), y1: at[1].toFixed(1), x2: to[0].toFixed(1), y2: to[1].toFixed(1), class: "trail" }));
  }
  svg.append(ground, signs, ids, trails, top);
  markAllowed(svg);
  svg.addEventListener("click", (event) => {
    const hex = event.target.closest && event.target.closest("[data-hex]");
    if (!hex) return;
    document.dispatchEvent(new CustomEvent("umpire:hex", { detail: { hex: hex.dataset.hex } }));
  });

  // A big map opens readable, on the area in play: the pieces and the hexes a form
  // allows now (issue #41 item 5); "Fit" frames that area again.
  const own = pieces.find((p) => isPlayer(map, p.side));
  const focus = own ? (([x, y]) => ({ x, y }))(centre(Number(own.hex.slice(0, 2)), Number(own.hex.slice(2)))) : null;
  const big = cols * rows > BIG_MAP;
  // The box round `hexes`, with a ring of hexes for their moves; null if none is drawn.
  const around = (hexes) => {
    const points = hexes.map((h) => [Number(h.slice(0, 2)), Number(h.slice(2))])
      .filter(([c, r]) => Number.isFinite(c) && Number.isFinite(r)).map(([c, r]) => centre(c, r));
    if (!points.length) return null;
    const xs = points.map((p) => p[0]);
    const ys = points.map((p) => p[1]);
    const pad = SIZE * 3; // a ring of hexes round the pieces, for their moves
    const x = Math.min(...xs) - pad;
    const y = Math.min(...ys) - pad;
    return { x, y, w: Math.max(...xs) + pad - x, h: Math.max(...ys) + pad - y };
  };
  const area = () => around([...byHex.keys(), ...allowed]);
  // The player's part of it, kept in view when the whole area is too big to read.
  const core = () => around([...pieces.filter((p) => isPlayer(map, p.side)).map((p) => p.hex), ...allowed]);
  // The player's own pieces that moved since the state shown before (the flight they
  // just moved): a kept view moves to show them (panzoom.js `keep`).
  const before = previous && previous.pieces ? new Map(previous.pieces.map((p) => [p.id, p.hex])) : null;
  const ownMoved = before ? pieces.filter((p) => isPlayer(map, p.side) && before.get(p.id) !== p.hex) : [];
  const keep = ownMoved.map((p) => centre(Number(p.hex.slice(0, 2)), Number(p.hex.slice(2))))
    .filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y)).map(([x, y]) => ({ x, y }));
  const inset = big ? overview(width, height, pieces.map((p) => ({ ...p, at: centre(Number(p.hex.slice(0, 2)), Number(p.hex.slice(2))), own: isPlayer(map, p.side) }))) : null;
  const tools = panZoom(svg, {
    key: `hex:${grid.parity}:${grid.min_col}-${grid.max_col}:${grid.min_row}-${grid.max_row}`,
    full: { x: 0, y: 0, w: width, h: height }, action, focus, minScale: READABLE, area, core,
    keep, pad: SIZE * 2,
    // Labels by zoom level: hex ids once a hex is big enough to read them; piece labels
    // and printed signs only while they are not a smear.
    onScale: (s) => {
      svg.classList.toggle("zoomed", s * SIZE >= LABELS_AT);
      svg.classList.toggle("far", s * SIZE < FAR_AT);
    },
    onView: inset ? inset.show : undefined,
  });

  const figure = document.createElement("figure");
  figure.className = "map";
  const caption = document.createElement("figcaption");
  caption.textContent = `Map: ${pieces.length} piece${pieces.length === 1 ? "" : "s"} on the map (blue: yours, red: the opponent's; ` +
    "the pointer shows the facing); ▲ terrain, ◎ target, ◇ zone. Drag to pan, wheel or pinch to zoom; click a hex to pick it.";
  const moveNote = document.createElement("p");
  moveNote.className = "last-move";
  moveNote.textContent = [
    moves.length ? `The opponent's last move: ${moves.map(moveSaid).join("; ")}` : "",
    yours.length ? `As you reported: ${yours.map(moveSaid).join("; ")}` : "",
  ].filter(Boolean).join(". ");
  moveNote.hidden = !changes.length;
  const legend = document.createElement("ul");
  legend.className = "map-features";
  for (const f of features) {
    const li = document.createElement("li");
    const hexesText = f.hexes.length > 12 ? `${f.hexes.slice(0, 12).join(" ")} … (${f.hexes.length} hexes)` : f.hexes.join(" ");
    li.textContent = `${{ terrain: "▲", target: "◎", zone: "◇" }[f.kind]} ${f.label}: ${hexesText}`;
    legend.append(li);
  }
  const frame = document.createElement("div");
  frame.className = "map-frame";
  frame.append(svg);
  let stage = frame;
  if (inset) {
    // The overview sits over the map's corner, beside (not inside) its frame.
    stage = document.createElement("div");
    stage.className = "map-stage";
    stage.append(frame, inset.node);
    inset.node.addEventListener("click", (event) => {
      // A click on the overview centres the map there.
      const box = inset.node.getBoundingClientRect();
      const x = ((event.clientX - box.left) / box.width) * width;
      const y = ((event.clientY - box.top) / box.height) * height;
      svg.dispatchEvent(new CustomEvent("umpire:centre", { detail: { x, y } }));
    });
  }
  figure.append(tools, stage, moveNote, caption);
  if (features.length) {
    const details = document.createElement("details");
    details.className = "map-legend";
    details.append(Object.assign(document.createElement("summary"), { textContent: `What is printed on the map (${features.length})` }), legend);
    figure.append(details);
  }
  return figure;
}
