// Pan and zoom of an SVG by its viewBox: the mouse wheel zooms around the pointer, a drag
// pans, two fingers pinch; the + / − / Fit / Follow buttons do the same from the keyboard,
// and the focused board pans with the arrow keys (+ and - zoom).
// The view is kept per board (`key`) across re-renders, so a new state does not throw the
// reader's zoom away; "Follow" re-centres on the action after every new state. "Fit"
// frames the area in play (`area`: the pieces and the hexes a form allows) no smaller than
// readable (`minScale`), and where that area is too big for a readable view, the part of
// it that is the player's (`core`: the player's own pieces and the hexes a form allows)
// stays in view; "Whole" shows the whole board however small.

const kept = new Map(); // key -> {x, y, w, h, follow}
const MIN_SPAN = 40; // the narrowest view, in SVG units (about one hex)
const CLICK_SLOP = 6; // px a pointer may move and still be a click

// `view` moved, at its size, the least that puts `points` (with `pad` round them) in it;
// where they cannot all fit, centred on them.
function showing(view, points, pad) {
  const along = (start, size, values) => {
    const lo = Math.min(...values) - pad;
    const hi = Math.max(...values) + pad;
    if (hi - lo > size) return (lo + hi) / 2 - size / 2;
    return Math.min(Math.max(start, hi - size), lo);
  };
  return { x: along(view.x, view.w, points.map((p) => p.x)), y: along(view.y, view.h, points.map((p) => p.y)) };
}

function button(text, label, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  b.setAttribute("aria-label", label);
  b.title = label;
  b.addEventListener("click", onClick);
  return b;
}

/**
 * Make `svg` pannable and zoomable.
 * @param {SVGSVGElement} svg  the drawing; its viewBox is the full extent
 * @param {object} o
 * @param {string} o.key  keeps the view across re-renders of the same board
 * @param {{x:number,y:number,w:number,h:number}} o.full  the whole board
 * @param {null|{x:number,y:number}} o.action  where the last opponent move is (follow)
 * @param {null|{x:number,y:number,w:number,h:number}} o.start  the first view (else fit)
 * @param {number} [o.minScale]  a new board whose fit is smaller than this (screen px per
 *   SVG unit) opens at this scale instead, centred on `focus` (a big map stays readable)
 * @param {null|{x:number,y:number}} [o.focus]  where a zoomed-in first view is centred
 * @param {(scale:number)=>void} [o.onScale]  told the screen px per SVG unit after a change
 * @param {()=>(null|{x:number,y:number,w:number,h:number})} [o.area]  the area in play now
 *   (what "Fit" frames, and a new board opens on); null: the whole board
 * @param {()=>(null|{x:number,y:number,w:number,h:number})} [o.core]  the part of the area
 *   that must stay in view when all of it cannot at a readable scale (the player's pieces)
 * @param {(view:{x:number,y:number,w:number,h:number})=>void} [o.onView]  told every new view
 * @param {{x:number,y:number}[]} [o.keep]  points a kept view is moved to show (the
 *   player's own pieces that moved since the state before: the flight they just moved)
 * @param {number} [o.pad]  the room kept round those points, in SVG units
 * @returns {HTMLElement} the toolbar of buttons
 */
export function panZoom(svg, { key, full, action = null, start = null, minScale = 0, focus = null, onScale = () => {}, area = () => null, core = () => null, onView = () => {}, keep = [], pad = 0 }) {
  let view = kept.get(key);
  const fresh = !view;
  if (!view) view = { ...(start || full), follow: false };
  if (view.follow && action) view = { ...view, x: action.x - view.w / 2, y: action.y - view.h / 2 };
  // The view stays where the reader left it, but the piece the player just moved stays in
  // it: the view is moved (no more than it must, at the same zoom) to show it. Downtown's
  // flight, moved a hex at a time, walked out of a zoomed-in view after a few moves.
  if (!fresh && keep.length) view = { ...view, ...showing(view, keep, pad) };
  kept.set(key, view);

  const scale = () => {
    // preserveAspectRatio meet: the smaller of the two fits decides
    const box = svg.getBoundingClientRect();
    if (!box.width || !box.height) return 1;
    return Math.min(box.width / view.w, box.height / view.h);
  };
  const apply = () => {
    svg.setAttribute("viewBox", `${view.x.toFixed(1)} ${view.y.toFixed(1)} ${view.w.toFixed(1)} ${view.h.toFixed(1)}`);
    svg.dataset.zoom = (full.w / view.w).toFixed(2);
    kept.set(key, view);
    onScale(scale());
    onView(view);
  };
  const zoom = (factor, cx = view.x + view.w / 2, cy = view.y + view.h / 2) => {
    const w = Math.min(Math.max(view.w / factor, MIN_SPAN), full.w * 2);
    const h = w * (view.h / view.w);
    view = { ...view, x: cx - ((cx - view.x) * w) / view.w, y: cy - ((cy - view.y) * h) / view.h, w, h };
    apply();
  };
  const whole = () => {
    view = { ...full, follow: false };
    apply();
  };
  // The area in play, framed with the pane's own proportions, never below minScale.
  const framed = (box) => {
    const pane = svg.getBoundingClientRect();
    if (!box || !pane.width || !pane.height) return { ...full };
    const ratio = pane.height / pane.width;
    let w = Math.max(box.w, box.h / ratio);
    if (minScale) w = Math.min(w, pane.width / minScale);
    w = Math.min(w, full.w * 2);
    const h = w * ratio;
    // Centred on the area; cut to a readable size, moved (no more than it must) so that the
    // player's own part is in view: Nightfighter's fighter far south of the bombers
    // entering in the north was left out of a view centred between them.
    const mine = core();
    const keep = (start, size, from, span) => {
      if (!mine) return start;
      if (span > size) return from + span / 2 - size / 2; // too big too: centred on it
      return Math.min(Math.max(start, from + span - size), from);
    };
    return {
      x: keep(box.x + box.w / 2 - w / 2, w, mine && mine.x, mine && mine.w),
      y: keep(box.y + box.h / 2 - h / 2, h, mine && mine.y, mine && mine.h),
      w, h,
    };
  };
  const fit = () => {
    view = { ...framed(area()), follow: false };
    apply();
  };
  const follow = () => {
    view = { ...view, follow: true };
    if (action) view = { ...view, x: action.x - view.w / 2, y: action.y - view.h / 2 };
    followButton.setAttribute("aria-pressed", "true");
    apply();
  };
  // A screen point in SVG units.
  const toSvg = (clientX, clientY) => {
    const box = svg.getBoundingClientRect();
    const s = scale();
    const ox = (box.width - view.w * s) / 2;
    const oy = (box.height - view.h * s) / 2;
    return { x: view.x + (clientX - box.left - ox) / s, y: view.y + (clientY - box.top - oy) / s };
  };

  // Labels by zoom follow the board's size on screen too (a turned phone, a resized window).
  if (typeof ResizeObserver === "function") new ResizeObserver(() => onScale(scale())).observe(svg);

  // Points the reader must see (the hexes a form field asks for): when none is in view,
  // the area in play is framed ("Fit"); one in view leaves the view alone.
  svg.addEventListener("umpire:show", (event) => {
    const inside = (p) => p.x >= view.x && p.x <= view.x + view.w && p.y >= view.y && p.y <= view.y + view.h;
    if (!event.detail.points.some(inside)) fit();
  });

  // Centre the view on a point (the overview inset of a big map sends it).
  svg.addEventListener("umpire:centre", (event) => {
    view = { ...view, x: event.detail.x - view.w / 2, y: event.detail.y - view.h / 2, follow: false };
    apply();
  });

  svg.addEventListener("wheel", (event) => {
    event.preventDefault();
    const p = toSvg(event.clientX, event.clientY);
    zoom(event.deltaY < 0 ? 1.2 : 1 / 1.2, p.x, p.y);
  }, { passive: false });

  // From the keyboard: the focused board pans with the arrow keys and zooms with + and -
  // (the page's own arrow keys, which step through the game, are left alone here).
  svg.setAttribute("tabindex", "0");
  svg.addEventListener("keydown", (event) => {
    const step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[event.key];
    if (step) {
      view = { ...view, x: view.x + step[0] * view.w * 0.15, y: view.y + step[1] * view.h * 0.15, follow: false };
      apply();
    } else if (event.key === "+" || event.key === "=") zoom(1.5);
    else if (event.key === "-") zoom(1 / 1.5);
    else return;
    event.preventDefault();
    event.stopPropagation();
  });

  const pointers = new Map(); // pointerId -> {x, y}
  let moved = 0;
  let pinch = null;
  svg.addEventListener("pointerdown", (event) => {
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (pointers.size === 1) moved = 0;
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      pinch = Math.hypot(a.x - b.x, a.y - b.y);
    }
  });
  svg.addEventListener("pointermove", (event) => {
    const last = pointers.get(event.pointerId);
    if (!last) return;
    const now = { x: event.clientX, y: event.clientY };
    pointers.set(event.pointerId, now);
    if (pointers.size === 2 && pinch) {
      const [a, b] = [...pointers.values()];
      const d = Math.hypot(a.x - b.x, a.y - b.y);
      const mid = toSvg((a.x + b.x) / 2, (a.y + b.y) / 2);
      if (d > 0) zoom(d / pinch, mid.x, mid.y);
      pinch = d;
      moved += CLICK_SLOP;
      return;
    }
    const dx = now.x - last.x;
    const dy = now.y - last.y;
    moved += Math.abs(dx) + Math.abs(dy);
    if (moved < CLICK_SLOP) return;
    if (!svg.hasPointerCapture(event.pointerId)) svg.setPointerCapture(event.pointerId);
    const s = scale();
    view = { ...view, x: view.x - dx / s, y: view.y - dy / s, follow: false };
    followButton.setAttribute("aria-pressed", "false");
    apply();
  });
  const up = (event) => {
    pointers.delete(event.pointerId);
    if (pointers.size < 2) pinch = null;
  };
  svg.addEventListener("pointerup", up);
  svg.addEventListener("pointercancel", up);
  // A click that was a drag is not a click on a hex.
  svg.addEventListener("click", (event) => {
    if (moved >= CLICK_SLOP) event.stopPropagation();
  }, true);

  const bar = document.createElement("div");
  bar.className = "map-tools";
  bar.setAttribute("role", "toolbar");
  bar.setAttribute("aria-label", "Map view");
  const followButton = button("Follow", "Follow the action: centre on the opponent's last move", follow);
  followButton.setAttribute("aria-pressed", String(Boolean(view.follow)));
  followButton.disabled = !action;
  bar.append(
    button("+", "Zoom in", () => zoom(1.5)),
    button("−", "Zoom out", () => zoom(1 / 1.5)),
    button("Fit", "Fit the area in play: the pieces and the hexes you may pick", fit),
    button("Whole", "Fit the whole board in the pane", whole),
    followButton,
  );
  // The first layout decides the screen scale (labels shown when zoomed in), and whether a
  // new board opens zoomed in.
  requestAnimationFrame(() => {
    const box = svg.getBoundingClientRect();
    const inPlay = fresh && !start ? area() : null;
    if (inPlay && box.width) {
      view = { ...view, ...framed(inPlay) }; // a new board opens on the area in play
    } else if (fresh && minScale && box.width && scale() < minScale) {
      const w = box.width / minScale;
      const h = box.height / minScale;
      const at = action || focus || { x: full.x + full.w / 2, y: full.y + full.h / 2 };
      view = { ...view, x: at.x - w / 2, y: at.y - h / 2, w, h };
    }
    apply();
  });
  apply();
  return bar;
}
