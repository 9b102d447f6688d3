// The engagement diagram a ruleset declares instead of a hex map (engine/map_view.py
// `Diagram`, a state frame's `map` with kind "diagram": Age of Dogfights, Down in Flames):
// built from the role's view only, drawn here as it is declared.
//
// - the field (if declared): the board seen from above, a lattice of points (odd rows half
//   a step east), the zones, each aircraft at its point with its heading; every point
//   carries data-hex (its point as JSON, "[col,row]", as the commands write a position) and
//   takes part in the hex picker (`umpire:hex`, `umpire:highlight`) as the hex map does;
// - the altitude chart: one band per level (highest on top), one lane per side, each
//   aircraft at its level with its state in words, and the positions between aircraft
//   (attacker → target) drawn as labelled arrows;
// - the same as a list, so the diagram reads without colour or sight.
import { node } from "./hexmap.js";
import { panZoom } from "./panzoom.js";

const STEP = 30; // lattice step, SVG units
const BAND = 34; // altitude band height
const LANE = 270; // lane width
const CHIP = 124; // an aircraft's chip in the altitude chart

const own = (diagram, a) => (diagram.player_sides || []).includes(a.side);
const colour = (diagram, a) => (own(diagram, a) ? "#2b5ea7" : "#b8322a");

let allowed = new Set();
document.addEventListener("umpire:highlight", (event) => {
  allowed = new Set((event.detail && event.detail.hexes) || []);
  for (const p of document.querySelectorAll(".board-field [data-hex]")) p.classList.toggle("allowed", allowed.has(p.dataset.hex));
});

function moved(diagram, previous) {
  if (!previous || previous.kind !== "diagram") return new Set();
  const before = new Map((previous.aircraft || []).map((a) => [a.id, a]));
  return new Set(diagram.aircraft.filter((a) => {
    const b = before.get(a.id);
    return !own(diagram, a) && b && (JSON.stringify(b.point) !== JSON.stringify(a.point) || b.level !== a.level ||
      b.heading !== a.heading || JSON.stringify(b.state) !== JSON.stringify(a.state));
  }).map((a) => a.id));
}

// What changed of an aircraft between two states, in words: "level 1 → out, now shot
// down", "hand 10 → 11" (a state word that keeps its first word, its value changed).
export function changeOf(before, now) {
  const said = [];
  const level = (l) => (l === null || l === undefined ? "out" : String(l));
  if (level(before.level) !== level(now.level)) said.push(`level ${level(before.level)} → ${level(now.level)}`);
  const point = (p) => (p ? p.join(",") : "off the board");
  if (JSON.stringify(before.point) !== JSON.stringify(now.point)) said.push(`${point(before.point)} → ${point(now.point)}`);
  if (before.heading !== now.heading && before.heading != null && now.heading != null) {
    said.push(`heading ${before.heading}° → ${now.heading}°`);
  }
  const words = (list) => (list || []).map((w) => String(w).replace(/_/g, " "));
  const was = words(before.state);
  const is = words(now.state);
  const gone = was.filter((w) => !is.includes(w));
  const added = [];
  for (const w of is.filter((x) => !was.includes(x))) {
    const head = w.split(" ")[0];
    const old = gone.find((g) => g.includes(" ") && g.split(" ")[0] === head);
    if (old) {
      gone.splice(gone.indexOf(old), 1);
      said.push(`${old} → ${w.slice(head.length + 1)}`);
    } else added.push(w);
  }
  if (added.length) said.push(`now ${added.join(", ")}`);
  if (gone.length) said.push(`no longer ${gone.join(", ")}`);
  return said.join(", ");
}

function field(diagram, changed) {
  const { width, height } = diagram.field;
  const at = ([c, r]) => [STEP * (c + 1 + (r % 2 ? 0.5 : 0)), STEP * 0.866 * (r + 1)];
  const w = STEP * (width + 1.5);
  const h = STEP * 0.866 * (height + 1);
  const svg = node("svg", {
    viewBox: `0 0 ${w.toFixed(0)} ${h.toFixed(0)}`, class: "board-field", role: "img",
    "aria-label": `The board from above: ${diagram.aircraft.filter((a) => a.point).map((a) => `${a.id} at ${a.point.join(",")} heading ${a.heading}°`).join(", ")}`,
  });
  svg.style.aspectRatio = `${w.toFixed(0)} / ${h.toFixed(0)}`; // as tall as the board's shape
  const points = node("g", { class: "points" });
  for (let r = 0; r < height; r += 1) {
    for (let c = 0; c < width; c += 1) {
      const [x, y] = at([c, r]);
      const id = JSON.stringify([c, r]);
      const p = node("circle", { cx: x.toFixed(1), cy: y.toFixed(1), r: STEP * 0.4, class: "point", "data-hex": id });
      if (allowed.has(id)) p.classList.add("allowed");
      p.append(node("title", {}, `point ${c},${r}`));
      points.append(p);
      points.append(node("text", { x: x.toFixed(1), y: (y - STEP * 0.22).toFixed(1), class: "hexid" }, `${c},${r}`));
    }
  }
  const zones = node("g", { class: "zones" });
  for (const z of diagram.zones || []) {
    const [x, y] = at(z.point);
    zones.append(node("circle", { cx: x.toFixed(1), cy: y.toFixed(1), r: STEP * (z.radius + 0.5), class: "zone" }));
    zones.append(node("text", { x: x.toFixed(1), y: (y + 4).toFixed(1), class: "zone-label" }, `◇ ${z.label}`));
  }
  const planes = node("g", { class: "pieces" });
  let action = null;
  for (const a of diagram.aircraft) {
    if (!a.point) continue;
    const [x, y] = at(a.point);
    const g = node("g", { class: `piece ${own(diagram, a) ? "own" : "other"}${changed.has(a.id) ? " moved" : ""}`, "data-piece": a.id, "data-at": JSON.stringify(a.point) });
    g.append(node("title", {}, `${a.id} (${a.side}) at ${a.point.join(",")}, level ${a.level}, heading ${a.heading}°: ${a.state.join(", ")}`));
    if (changed.has(a.id)) {
      g.append(node("circle", { cx: x.toFixed(1), cy: y.toFixed(1), r: STEP * 0.62, class: "halo" }));
      action = action || { x, y };
    }
    g.append(node("polygon", {
      points: `${x},${y - 11} ${x - 8},${y + 8} ${x},${y + 4} ${x + 8},${y + 8}`,
      class: "plane", fill: colour(diagram, a), transform: `rotate(${a.heading || 0} ${x} ${y})`, "data-heading": a.heading,
    }));
    g.append(node("text", { x: x.toFixed(1), y: (y + 20).toFixed(1), class: "counter", "font-size": 9 }, `${a.label || a.id} L${a.level}`));
    planes.append(g);
  }
  svg.append(zones, points, planes);
  svg.addEventListener("click", (event) => {
    const hit = event.target.closest && event.target.closest("[data-hex]");
    if (hit) document.dispatchEvent(new CustomEvent("umpire:hex", { detail: { hex: hit.dataset.hex } }));
  });
  const tools = panZoom(svg, {
    key: `field:${width}x${height}`, full: { x: 0, y: 0, w, h }, action,
    onScale: (s) => svg.classList.toggle("zoomed", s * STEP >= 34),
  });
  return [tools, svg];
}

function chart(diagram, changed) {
  const bands = [...diagram.bands].sort((a, b) => b.high - a.high);
  const lanes = diagram.lanes.length ? diagram.lanes : ["all"];
  const left = 70;
  const out = diagram.aircraft.filter((a) => a.level === null || a.level === undefined);
  const rows = bands.length + (out.length ? 1 : 0);
  const w = left + LANE * lanes.length;
  const h = 24 + BAND * rows;
  const svg = node("svg", {
    viewBox: `0 0 ${w} ${h}`, class: "board-chart", role: "img",
    "aria-label": `Altitude: ${diagram.aircraft.map((a) => `${a.id} ${a.level ? `level ${a.level}` : "out"}`).join(", ")}`,
  });
  lanes.forEach((lane, i) => svg.append(node("text", { x: left + LANE * i + LANE / 2, y: 16, class: "lane" }, lane)));
  const rowOf = (level) => bands.findIndex((b) => b.low <= level && level <= b.high);
  bands.forEach((b, i) => {
    const y = 24 + BAND * i;
    svg.append(node("rect", { x: 0, y, width: w, height: BAND, class: i % 2 ? "band odd" : "band" }));
    svg.append(node("text", { x: 6, y: y + BAND / 2 + 4, class: "band-label" }, b.label));
  });
  if (out.length) {
    const y = 24 + BAND * bands.length;
    svg.append(node("rect", { x: 0, y, width: w, height: BAND, class: "band out" }));
    svg.append(node("text", { x: 6, y: y + BAND / 2 + 4, class: "band-label" }, "out"));
  }
  const where = new Map();
  const filled = new Map();
  for (const a of diagram.aircraft) {
    const lane = Math.max(0, lanes.indexOf(a.lane));
    const row = a.level === null || a.level === undefined ? bands.length : rowOf(a.level);
    if (row < 0) continue;
    const slot = `${lane}:${row}`;
    const n = filled.get(slot) || 0;
    filled.set(slot, n + 1);
    const x = left + LANE * lane + 8 + n * (CHIP + 8);
    const y = 24 + BAND * row + 4;
    where.set(a.id, [x + CHIP / 2, y + (BAND - 8) / 2]);
    const g = node("g", { class: `piece ${own(diagram, a) ? "own" : "other"}${changed.has(a.id) ? " moved" : ""}${a.out ? " out" : ""}`, "data-piece": a.id });
    g.append(node("title", {}, `${a.id} (${a.side}${a.level ? `, level ${a.level}` : ""}): ${a.state.join(", ")}`));
    g.append(node("rect", { x, y, width: CHIP, height: BAND - 8, rx: 4, class: "chip", fill: a.out ? "#888" : colour(diagram, a) }));
    // The label and the aircraft's first word of state (its type), whole: the chip is sized for it.
    const text = [a.label || a.id, a.state[0]].filter(Boolean).join(" ").replace(/_/g, " ");
    g.append(node("text", { x: x + CHIP / 2, y: y + (BAND - 8) / 2 + 4, class: "chip-label", "font-size": Math.min(11, (CHIP * 1.6) / Math.max(1, text.length)).toFixed(1) }, text));
    svg.append(g);
  }
  for (const link of diagram.links || []) {
    const a = where.get(link.source);
    const b = where.get(link.target);
    if (!a || !b) continue;
    svg.append(node("line", { x1: a[0], y1: a[1] + 8, x2: b[0], y2: b[1] + 8, class: "link", "marker-end": "url(#arrow)" }));
    svg.append(node("text", { x: (a[0] + b[0]) / 2, y: (a[1] + b[1]) / 2 + 4, class: "link-label" }, link.label));
  }
  const defs = node("defs", {});
  const marker = node("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 6, markerHeight: 6, orient: "auto-start-reverse" });
  marker.append(node("path", { d: "M 0 0 L 10 5 L 0 10 z", fill: "#111" }));
  defs.append(marker);
  svg.prepend(defs);
  return svg;
}

/**
 * The diagram of a state frame; null when the frame's map is not a diagram.
 * @param {object} diagram  the state frame's `map` (kind "diagram")
 * @param {{previous?: object|null}} [o]  the map of the state shown before (the last move)
 */
export function boardDiagram(diagram, { previous = null } = {}) {
  if (!diagram || diagram.kind !== "diagram") return null;
  const changed = moved(diagram, previous);
  const figure = document.createElement("figure");
  figure.className = "map board";
  figure.append(Object.assign(document.createElement("h3"), { textContent: diagram.title }));
  if (diagram.field) {
    const [tools, svg] = field(diagram, changed);
    const frame = Object.assign(document.createElement("div"), { className: "map-frame" });
    frame.append(svg);
    figure.append(tools, frame);
  }
  const chartFrame = Object.assign(document.createElement("div"), { className: "chart-frame" });
  chartFrame.append(chart(diagram, changed));
  figure.append(chartFrame);
  const note = document.createElement("p");
  note.className = "last-move";
  note.hidden = !changed.size;
  // What changed, in words: the change may be the opponent's move or the effect of the
  // player's own command (an attack that shot it down), so the note says what, not whose.
  const before = new Map(((previous && previous.aircraft) || []).map((a) => [a.id, a]));
  note.textContent = changed.size
    ? `Changed since the state before (outlined): ${diagram.aircraft.filter((a) => changed.has(a.id))
      .map((a) => `${a.id}: ${changeOf(before.get(a.id), a)}`).join("; ")}`
    : "";
  const list = document.createElement("ul");
  list.className = "board-aircraft";
  for (const a of diagram.aircraft) {
    const li = document.createElement("li");
    li.dataset.piece = a.id;
    const where = [a.level ? `level ${a.level}` : "out", a.point ? `at ${a.point.join(",")}` : "", a.heading !== null && a.heading !== undefined ? `heading ${a.heading}°` : ""].filter(Boolean).join(", ");
    li.textContent = `${own(diagram, a) ? "■ yours" : "▲ opponent"} ${a.label || a.id} (${a.side}): ${where}; ${a.state.join(", ").replace(/_/g, " ")}`;
    list.append(li);
  }
  for (const link of diagram.links || []) {
    const li = document.createElement("li");
    li.textContent = `${link.source} → ${link.target}: ${link.label}`;
    list.append(li);
  }
  const caption = document.createElement("figcaption");
  caption.textContent = "Blue: yours, red: the opponent's, grey: out. " +
    (diagram.field ? "Drag to pan, wheel or pinch to zoom the board; click a point to pick it." : "Arrows: an attacker's position on its target.");
  figure.append(note, list, caption);
  return figure;
}
