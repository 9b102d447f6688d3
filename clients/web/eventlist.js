// The game log as a virtual list (issue #41, item 4): the list holds every event's frame
// but only the rows near what is scrolled into view are in the page, with the rest stood
// in for by two spacers at an estimated row height (not the list's padding: a box's
// padding is never squeezed by its max-height, so the list would grow to the log's length). Opening a 10,000-event game
// builds a few hundred rows, not 10,000 (each with its "why" box): the rows were ~17 ms
// an event of the page's time when every event made a row and every new event walked
// all of them to hide the ones after the seq shown.
//
// While events stream in (a long game opening), the list is drawn at most every DRAW_MS:
// rows that would scroll past between two draws are never built.
//
// A short game (fewer rows than the window) has all its rows in the page, in order.

const ROW = 44; // px a one-line row takes, the estimate the padding is made of
const OVERSCAN = 60; // rows built above and below what is in view
const DRAW_MS = 250; // the longest a new event waits for its row

export class EventList {
  /**
   * @param {HTMLOListElement} list  the scrolling <ol>
   * @param {(seq: number) => HTMLLIElement} make  builds the row of an event
   */
  constructor(list, make) {
    this.list = list;
    this.make = make;
    this.from = 1; // the first event read (the page reads a long game's log lazily)
    this.limit = 0; // rows from..limit are in the list (the events up to the seq shown)
    this.rows = new Map(); // seq -> built row (those in the page now)
    this.pinned = true; // the list follows its end unless the reader scrolled up
    this.first = 1;
    this.last = 0;
    this.current = null;
    this.timer = null;
    this.top = Object.assign(document.createElement("div"), { className: "spacer" });
    this.bottom = Object.assign(document.createElement("div"), { className: "spacer" });
    this.top.setAttribute("aria-hidden", "true");
    this.bottom.setAttribute("aria-hidden", "true");
    list.replaceChildren(this.top, this.bottom);
    let queued = false;
    list.addEventListener("scroll", () => {
      this.pinned = list.scrollHeight - list.scrollTop - list.clientHeight < 24;
      if (queued) return;
      queued = true;
      requestAnimationFrame(() => {
        queued = false;
        this.draw();
      });
    });
  }

  // Rows 1..limit are the list now (new events, or the seq shown moved): drawn now, or
  // (`soon`) with the next draws of a stream of events.
  setLimit(limit, { soon = false } = {}) {
    this.limit = limit;
    if (!soon) {
      this.draw();
      return;
    }
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.draw();
    }, DRAW_MS);
  }

  // The event of `seq` changed (its full payload after the reveal): build its row again.
  refresh(seq) {
    const old = this.rows.get(seq);
    if (!old) return;
    const row = this.make(seq);
    this.rows.set(seq, row);
    old.replaceWith(row);
  }

  clear() {
    this.rows.clear();
    this.from = 1;
    this.limit = 0;
    this.first = 1;
    this.last = 0;
    this.pinned = true;
    this.list.replaceChildren(this.top, this.bottom);
    this.top.style.height = "0px";
    this.bottom.style.height = "0px";
  }

  // Mark the row of the seq shown (aria-current), wherever it is.
  mark(seq) {
    this.current = seq;
    for (const row of this.list.querySelectorAll("[aria-current]")) row.removeAttribute("aria-current");
    const row = this.rows.get(seq);
    if (row) row.setAttribute("aria-current", "step");
  }

  // The rows in view and OVERSCAN either side; the padding stands for the others.
  draw() {
    const { list } = this;
    const inView = Math.max(10, Math.ceil((list.clientHeight || 0) / ROW));
    let first;
    if (this.pinned) first = this.limit - inView - OVERSCAN + 1;
    else first = this.from + Math.floor(list.scrollTop / ROW) - OVERSCAN;
    first = Math.max(this.from, first);
    const last = Math.min(this.limit, first + inView + 2 * OVERSCAN - 1);
    if (first === this.first && last === this.last && this.rows.size === Math.max(0, last - first + 1)) {
      if (this.pinned) list.scrollTop = list.scrollHeight;
      return;
    }
    for (const [seq, row] of this.rows) {
      if (seq < first || seq > last) {
        row.remove();
        this.rows.delete(seq);
      }
    }
    // Insert the missing rows in order: before the first kept row, or at the end.
    let next = this.top.nextElementSibling;
    for (let seq = first; seq <= last; seq += 1) {
      const have = this.rows.get(seq);
      if (have) {
        next = have.nextElementSibling;
        continue;
      }
      const row = this.make(seq);
      if (seq === this.current) row.setAttribute("aria-current", "step");
      this.rows.set(seq, row);
      list.insertBefore(row, next);
    }
    this.first = first;
    this.last = last;
    this.top.style.height = `${Math.max(0, first - this.from) * ROW}px`;
    this.bottom.style.height = `${Math.max(0, this.limit - last) * ROW}px`;
    if (this.pinned) list.scrollTop = list.scrollHeight;
  }
}
