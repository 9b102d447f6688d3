// Pure DOM builders for the viewer: event rows with their explanations, dice rows, and
// the state (the ruleset's declared map, tracks and tables).
import { inWords, kindInWords, readable, typeInWords } from "./citations.js";
import { hexMap } from "./hexmap.js";
import { boardDiagram } from "./board.js";

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

function faces(p) {
  if (!p.faces || p.faces.length === 0) return "hidden";
  if (p.labels && p.labels.length) return p.labels.map((l, i) => `${l} ${p.faces[i]}`).join(", ");
  return p.faces.join(" ");
}

// A roll as a player counts the game's rolls, from 1, as the terminal says it
// (events/rules_words.py roll_name): "roll 1" is the log's roll 0 (the event's `roll`).
export function rollName(number) {
  return `roll ${number + 1}`;
}

// The dice of a roll by their sides where the roll's kind does not say them (a "custom"
// roll of two d10 is "2d10", an "nd6" of six dice "6d6"; mixed dice "d6 + d10"); named
// ("coloured") dice by their names as the rules say them ("blue and purple dice"); a card
// draw and the other named kinds as they are (events/rules_words.py dice_name).
export function diceName(p) {
  const sides = p.sides || [];
  const labels = p.labels || [];
  if (p.kind === "coloured" && labels.length) {
    const names = labels.length > 1 ? `${labels.slice(0, -1).join(", ")} and ${labels.at(-1)}` : labels[0];
    return `${names} ${labels.length === 1 ? "die" : "dice"}`;
  }
  if (!["custom", "nd6"].includes(p.kind) || !sides.length) return p.kind;
  const groups = [];
  for (const n of sides) {
    const last = groups.at(-1);
    if (last && last.n === n) last.count += 1;
    else groups.push({ n, count: 1 });
  }
  return groups.map((g) => `${g.count > 1 ? g.count : ""}d${g.n}`).join(" + ");
}

// A roll's faces and total, or "[hidden]" as the terminal says it: a hidden roll's frame
// holds no faces and a total of 0, which is no total (the DiceRolled frame's `hidden`);
// `why`: and what that means, for a roll cited on its own (a decision's dice).
export function rollShown(p, why = false) {
  if (p.faces && p.faces.length) return `[${faces(p)}] = ${p.total}`;
  return why ? "[hidden] (the umpire's secret until the game's seed is revealed)" : "[hidden]";
}

// A command's or an event's fields in words: "amount 3", "flights (id Buick, hex 2020)".
function said(value) {
  if (value === null || value === undefined) return "none";
  if (Array.isArray(value)) return value.length ? value.map(said).join(", ") : "none";
  if (typeof value === "object") {
    return Object.entries(value).map(([k, v]) => {
      const inner = said(v);
      return `${k.replace(/_/g, " ")} ${v && typeof v === "object" && !Array.isArray(v) ? `(${inner})` : inner}`;
    }).join("; ");
  }
  // An enum's snake_case name in words ("very_high" -> "very high"); ids as they are.
  if (typeof value === "string" && /^[a-z][a-z0-9]*(_[a-z0-9]+)+$/.test(value)) return value.replace(/_/g, " ");
  // A yes or no in words, as the state's tracks say it (wording), not "true"/"false".
  if (typeof value === "boolean") return value ? "yes" : "no";
  return String(value);
}

// An event's type as the table names it, in words: a ruleset's own type without its
// ruleset's key, with the ruleset's capitals (`capitals`: acronyms of its /rulesets.json
// entry): "conflict_of_heroes.OrderCardDrawn" -> "Order card drawn", "downtown.SamSetUp"
// -> "SAM set up" (issue #41: no code name on the table; citations.js typeInWords, the
// terminal's rule). The game's own events (no ruleset's key) take no ruleset's capitals,
// as in the terminal. Before the ruleset's entry is known: the words without capitals.
// The whole type stays in the row's data-type and title.
export function kindOf(frame, capitals = []) {
  return kindInWords(frame.event_type, frame.payload, frame.event_type.includes(".") ? capitals : []);
}

// An event of a line as a dispute's finding gives it (its canonical JSON, cut at 500
// characters) in the words of the log's rows: its type in words (`capitals`, kindOf) and
// what it says ("SAM reacted: …"); one cut short by what it still says (cutEventSaid). A
// text that is no event ("(nothing)", "(refused)") is shown as it is.
export function eventSaid(text, capitals = []) {
  let event;
  try {
    event = JSON.parse(text);
  } catch {
    return cutEventSaid(text, capitals);
  }
  if (!event || typeof event !== "object" || typeof event.type !== "string") return text;
  const frame = { event_type: event.type, payload: event };
  return `${kindOf(frame, capitals)}: ${describe(frame, capitals)}`;
}

// A finding keeps 500 characters of each event's JSON (engine/disputes.py), so a long
// decision's text ends mid-object, often before its explanation: what it says is looked
// for in the text itself, the explanation, else the fields whole before the cut and the
// options it chose, word for word as the terminal says it (events/rules_words.py
// event_said).
const STRING = String.raw`"(?:[^"\\]|\\.)*"`;
// Who won as a game's end states it (GameEnded.winner), in the log's line: the words of
// `umpire log` (events/rules_words.py WINNER_SAID; tests/viewer/test_end_winner.py).
export const WINNER_SAID = {
  player: "the player wins",
  opponent: "the player loses",
  draw: "a draw",
  none_stated: "no winner: the rules state no victory condition",
};
const NOT_SAID = new Set(["type", "rule", "dice", "candidates", "explanation"]);
function cutEventSaid(text, capitals) {
  const typed = /"type":"([A-Za-z0-9_.]+)"/.exec(text);
  if (!typed) return text;
  const head = typeInWords(typed[1], capitals);
  const explained = new RegExp(`"explanation":(${STRING})`).exec(text);
  if (explained) return `${head}: ${inWords(JSON.parse(explained[1]))}`;
  const parts = [fieldsSaid(leadingFields(text))];
  for (const [, option, reason] of text.matchAll(
    new RegExp(`\\{"option":(${STRING}),"chosen":true,"reason":(${STRING})`, "g"))) {
    parts.push(`chose ${JSON.parse(option)} (${JSON.parse(reason)})`);
  }
  const said = parts.filter(Boolean).map(inWords).join("; ");
  if (said) return `${head}: ${said}`;
  return `${head} (its text is cut short in the finding: umpire explain shows it whole)`;
}

// The fields whole before the cut: the longest prefix that ends between two fields and
// reads as an object once closed.
function leadingFields(text) {
  for (let at = text.lastIndexOf(',"'); at > 0; at = text.lastIndexOf(',"', at - 1)) {
    try {
      const found = JSON.parse(`${text.slice(0, at)}}`);
      return found && typeof found === "object" && !Array.isArray(found) ? found : {};
    } catch {
      // not between two fields: an earlier comma
    }
  }
  return {};
}

function fieldsSaid(event) {
  return Object.entries(event)
    .filter(([k, v]) => !NOT_SAID.has(k) && !isEmpty(v))
    .map(([k, v]) => `${inWords(k)}: ${inWords(readText(v))}`)
    .join(", ");
}

function isEmpty(v) {
  return v === null || v === "" || (Array.isArray(v) && !v.length) ||
    (typeof v === "object" && v !== null && !Array.isArray(v) && !Object.keys(v).length);
}

// A field's value in an event's line as a player reads it: a yes or no said so, the rest
// as fieldText (events/rules_words.py _read_text).
function readText(v) {
  if (typeof v === "boolean") return v ? "yes" : "no";
  if (Array.isArray(v)) return `[${v.map(readText).join(", ")}]`;
  if (v !== null && typeof v === "object") return `{${Object.entries(v).map(([k, x]) => `${k}: ${readText(x)}`).join(", ")}}`;
  return fieldText(v);
}

// A field's value on one line as a player types it (events/rules_words.py field_text).
function fieldText(v) {
  if (typeof v === "string") return v;
  if (v === null || v === undefined) return "null";
  if (Array.isArray(v)) return `[${v.map(fieldText).join(", ")}]`;
  if (typeof v === "object") return `{${Object.entries(v).map(([k, x]) => `${k}: ${fieldText(x)}`).join(", ")}}`;
  return String(v);
}

// What an event says, in words; `capitals`: the ruleset's, for the events a dispute's
// finding names (eventSaid).
export function describe(frame, capitals = []) {
  const p = frame.payload;
  if (p === null) return "(hidden from your role until the game ends)";
  switch (frame.event_type) {
    case "GameCreated":
      return `game created: ${p.ruleset.replace(/_/g, " ")} v${p.ruleset_version}, seed commitment ` +
        `${p.seed_commitment.slice(0, 16)}…, ` +
        (p.client_seed ? `client seed ${p.client_seed}`
          : p.client_entropy === "waived" ? "client entropy waived" : "client seed to be bound") +
        (p.opponent_manual_dice ? ", player may enter the opponent's dice" : "");
    case "ClientSeedBound":
      return `client seed ${p.client_seed} bound for seed epoch ${p.epoch}`;
    case "CommandRecorded": {
      const { type, ...fields } = p.command || {};
      const args = Object.keys(fields).length ? `: ${said(fields)}` : "";
      return `${p.role} command ${p.command_type}${args}${p.manual_dice ? " (manual dice)" : ""}`;
    }
    case "DiceRolled": {
      const whose = p.owner ? ` · the ${p.owner}'s roll` : "";
      return `${rollName(p.roll)}: ${diceName(p)} ${rollShown(p)} (${p.by}) for ${readable(p.purpose)}${whose}`;
    }
    case "SeedRevealed":
      if (p.next_commitment)
        return `seed of epoch ${p.epoch} revealed: ${p.seed}; next seed committed: ` +
          `${p.next_commitment.slice(0, 16)}…`;
      return `seed revealed: ${p.seed}`;
    case "GameEnded": {
      const won = WINNER_SAID[p.winner];
      return `game ended: ${readable(p.result)}${won ? ` (${won})` : ""}`;
    }
    case "DisputeFound": {
      // The events where the lines part in words (their JSON is the Audit's business).
      const parts = p.parts_at
        ? `under that reading the game goes otherwise from seq ${p.parts_at}: as played ` +
          `${eventSaid(p.as_played, capitals)}; under the reading ${eventSaid(p.under_reading, capitals)}`
        : "under that reading every event up to now comes out as played";
      const stopped = p.stopped ? `; the reading's line stops at ${p.stopped}` : "";
      const head = (p.head || []).map((c) => `${inWords(c.path)}: ${JSON.stringify(c.before)} → ${JSON.stringify(c.after)}`);
      return `dispute ${p.dispute}: ${p.same ? "the same" : "different"}; ${parts}${stopped}` +
        (head.length ? `; at the head: ${head.join(", ")}` : "");
    }
    default: {
      // The rules' own words, a seed file named in them said by its title (citations.js).
      if (p.explanation) return readable(p.explanation);
      const { type, rule, candidates, dice, ...rest } = p;
      return said(rest);
    }
  }
}

export function isDecision(frame) {
  const p = frame.payload;
  if (!p || !p.rule || ["DiceRolled", "GameEnded"].includes(frame.event_type)) return false;
  return Boolean(p.candidates || p.explanation || (p.dice && p.dice.length));
}

// The "why" of a decision: explanation, dice used (looked up in the dice log), candidates.
export function explanation(frame, rolls) {
  const p = frame.payload;
  const box = el("details", { class: "why" });
  const count = (p.candidates || []).length;
  // What the "why" holds: its candidates, else its dice, else its rule alone (a phase
  // begun rolls nothing: "rule and dice" promised dice it does not have).
  const holds = count ? `${count} ${count === 1 ? "candidate" : "candidates"}`
    : (p.dice || []).length ? "rule and dice" : "rule";
  box.append(el("summary", { text: `Why? (${holds})` }));
  if (p.explanation) box.append(el("p", { text: readable(p.explanation) }));
  box.append(el("p", { class: "cite", title: p.rule }, el("strong", { text: "Rule: " }), readable(p.rule)));
  if (p.row) box.append(el("p", {}, el("strong", { text: "Table row: " }), String(p.row)));
  if (p.dice && p.dice.length) {
    const list = el("ul", { class: "used-dice", "aria-label": "Dice used" });
    for (const number of p.dice) {
      const roll = rolls.get(number);
      list.append(el("li", {
        text: roll
          ? `${rollName(number)} (seq ${roll.seq}): ${diceName(roll.payload)} ${rollShown(roll.payload, true)}` +
            ` for ${readable(roll.payload.purpose)}`
          : rollName(number),
      }));
    }
    box.append(el("p", { text: "Dice used:" }), list);
  }
  if (count) {
    const list = el("ol", { class: "candidates", "aria-label": "Candidates considered" });
    for (const c of p.candidates) {
      list.append(el("li", { class: c.chosen ? "chosen" : "rejected" },
        el("strong", { text: c.chosen ? "✓ chosen: " : "✗ rejected: " }),
        readable(`${c.option} — ${c.reason}`)));
    }
    box.append(el("p", { text: "Candidates considered:" }), list);
  }
  return box;
}

// `capitals`: the game's ruleset's (acronyms of its /rulesets.json entry), for kindOf.
export function eventRow(frame, rolls, onPick, capitals = []) {
  const li = el("li", { "data-seq": frame.seq, id: `seq-${frame.seq}`, "data-type": frame.event_type });
  // A decision's topic names its kind (kindOf); kept for naming it again (viewer.js).
  if (frame.payload && typeof frame.payload.topic === "string") li.dataset.topic = frame.payload.topic;
  const seq = el("button", {
    type: "button", class: "seq", text: `#${frame.seq}`,
    "aria-label": `Show the game at seq ${frame.seq}`,
  });
  seq.addEventListener("click", () => onPick(frame.seq));
  li.append(seq, el("span", { class: "kind", title: frame.event_type, text: kindOf(frame, capitals) }), " ",
    el("span", { class: "what", text: describe(frame, capitals) }));
  if (frame.payload && frame.payload.rule) {
    li.append(el("span", { class: "rule", title: frame.payload.rule, text: `Rule: ${readable(frame.payload.rule)}` }));
  }
  if (isDecision(frame)) li.append(explanation(frame, rolls));
  return li;
}

export function diceRow(frame) {
  const p = frame.payload;
  return el("tr", { "data-seq": frame.seq },
    el("td", { text: String(p.roll + 1) }), el("td", { text: frame.seq }),
    el("td", { text: diceName(p) }), el("td", { text: faces(p) }),
    el("td", { text: p.faces.length ? p.total : "?" }), el("td", { text: p.by }),
    el("td", { text: readable(p.purpose) }), el("td", { title: p.rule, text: readable(p.rule) }));
}

const isScalar = (v) => v === null || ["string", "number", "boolean"].includes(typeof v);
const short = (v) => (isScalar(v) ? String(v) : JSON.stringify(v));

// How a field is named and its values said (issue #41): the ruleset's own labels from
// /rulesets.json (`labels`, `value_labels`, keyed by the bare field name) where it gives
// them, else the key in words ("vid_limit" -> "Vid limit"). A lowercase snake_case value
// (an enum's name) is said in words too; ids and numbers are left as they are.
export function humanize(key) {
  const words = String(key).replace(/_/g, " ").trim();
  return words ? words[0].toUpperCase() + words.slice(1) : words;
}
const NO_WORDS = { labels: {}, value_labels: {} };
const SEED_FILE = /\b\d{3}_[0-9a-f]{16}\.txt\b/;
export function wording(names = NO_WORDS) {
  const labels = (names && names.labels) || {};
  const values = (names && names.value_labels) || {};
  const words = {
    key: (k) => labels[k] || humanize(k),
    value: (k, v) => {
      const said = values[k] && values[k][isScalar(v) ? String(v) : JSON.stringify(v)];
      if (said !== undefined) return said;
      // A rule the state holds (Downtown's ordered attack: who ordered it) by the rulebook's
      // title and heading, as the log cites it, never by its seed file's name.
      if (typeof v === "string" && SEED_FILE.test(v)) return readable(v);
      if (typeof v === "string" && /^[a-z][a-z0-9]*(_[a-z0-9]+)+$/.test(v)) return v.replace(/_/g, " ");
      if (typeof v === "boolean") return v ? "yes" : "no";
      if (v === null) return "—";
      // A list or a record in a cell: its items, its fields by their labels.
      if (Array.isArray(v)) return v.length ? v.map((item) => words.value(k, item)).join(", ") : "none";
      if (typeof v === "object") {
        return Object.entries(v).map(([ik, iv]) => `${words.key(ik)}: ${words.value(ik, iv)}`).join("; ");
      }
      return short(v);
    },
  };
  return words;
}

function table(rows, caption, words) {
  const columns = [];
  for (const row of rows) for (const key of Object.keys(row)) if (!columns.includes(key)) columns.push(key);
  const head = el("tr", {}, ...columns.map((c) => el("th", { scope: "col", text: words.key(c) })));
  const body = rows.map((row) => el("tr", {}, ...columns.map((c) => el("td", { text: c in row ? words.value(c, row[c]) : "" }))));
  return el("div", { class: "table-wrap" },
    el("table", { class: "state-table" }, el("caption", { text: caption }), el("thead", {}, head), el("tbody", {}, ...body)));
}

function section(key, value, words, title = words.key(key)) {
  if (Array.isArray(value)) {
    if (value.length && value.every((v) => v && typeof v === "object" && !Array.isArray(v))) {
      return table(value, `${title} (${value.length})`, words);
    }
    return el("p", {}, el("strong", { text: `${title}: ` }), value.length ? value.map((v) => words.value(key, v)).join(", ") : "none");
  }
  const scalars = Object.entries(value).filter(([, v]) => isScalar(v));
  const nested = Object.entries(value).filter(([, v]) => !isScalar(v));
  const box = el("section", { class: "state-part" }, el("h3", { text: title }));
  if (scalars.length) box.append(tracks(scalars, words));
  for (const [inner, v] of nested) box.append(section(inner, v, words, `${title}: ${words.key(inner)}`));
  return box;
}

function tracks(entries, words) {
  return el("dl", { class: "tracks" }, ...entries.flatMap(([k, v]) => [
    el("dt", { text: words.key(k) }), el("dd", { text: words.value(k, v) })]));
}

// The map or diagram the ruleset declares (the state frame's `map`: hexmap.js or board.js;
// `previous` is the map shown before, for the opponent's last move), or null.
export function boardOf(map = null, previous = null, reported = new Set()) {
  return hexMap(map, { previous, reported }) || boardDiagram(map, { previous });
}

// A ruleset's state in words: every track (scalar) and table (list of records) by the
// ruleset's labels (`names`: its /rulesets.json entry), then the raw JSON.
export function stateDetails(state, names = NO_WORDS) {
  const box = el("div", { class: "state-view" });
  if (state === null || state === undefined) return box;
  if (typeof state !== "object") {
    box.append(el("p", { text: short(state) }));
    return box;
  }
  const words = wording(names);
  const scalars = Object.entries(state).filter(([, v]) => isScalar(v));
  if (scalars.length) box.append(el("h3", { text: "Tracks" }), tracks(scalars, words));
  for (const [key, value] of Object.entries(state)) {
    if (!isScalar(value)) box.append(section(key, value, words));
  }
  box.append(el("details", { class: "raw" }, el("summary", { text: "Raw state (JSON)" }),
    el("pre", { text: JSON.stringify(state, null, 2) })));
  return box;
}
