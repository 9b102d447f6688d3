// The player's table: the legal actions of the state at the head as forms (forms.js), a
// take-back button when the rules list TakeBack, physical dice entry, the server's answer
// (its receipt, or its error in full), and the opponent's latest decisions with their
// citations and candidates.
import { commandFields, parseDice } from "./forms.js";
import { readable, typeInWords } from "./citations.js";
import { describe, el, explanation, isDecision, kindOf, wording } from "./render.js";

// Commands whose dice the player never enters.
const NO_DICE = new Set(["TakeBack", "EndGame"]);
// The commands every game lists while it runs (engine/actions.py universal_actions): a
// roll of the player's own and ending the game early. They are no step of the rules.
const UNIVERSAL = new Set(["RollDice", "EndGame"]);

export const shortHash = (hash) => (hash ? hash.slice(0, 12) : "");

// The tracks of a state that say where the game stands in its sequence of play, the
// larger unit first (a turn, a round, a move, then the phase, the step, the side to act).
const WHERE = ["turn", "round", "move", "phase", "step", "active_side"];

// Where the game stands, in the ruleset's words ("Turn: 8 · Phase: Searchlight"), from a
// state's top-level tracks (`names`: the ruleset's /rulesets.json entry); "" if it has none.
// A hex map's table said it nowhere above the state pane, three screens down on a phone.
export function whereWeAre(state, names) {
  const words = wording(names);
  const tracks = state && typeof state === "object" ? state : {};
  return WHERE.filter((k) => k in tracks && tracks[k] !== null && typeof tracks[k] !== "object")
    .map((k) => `${words.key(k)}: ${words.value(k, tracks[k])}`).join(" · ");
}

// "error (code): message", with the details a player needs to correct it: the commands
// allowed now as their forms name them (`capitals`: the ruleset's, "Take AI turn").
export function errorText(err, capitals = []) {
  const parts = [`error (${err.code || "failed"}): ${err.message}`];
  const d = err.details || {};
  if (d.allowed && Array.isArray(d.allowed)) parts.push(`allowed now: ${d.allowed.map((t) => typeInWords(String(t), capitals)).join(", ")}`);
  if (d.rule) parts.push(`rule: ${readable(d.rule)}`);
  if (d.field) parts.push(`field: ${d.field}`);
  return parts.join(" · ");
}

// The warning for the receipts of a game that failed the check on arrival (umpire.js's
// onReceiptFault; the latest last), in words a player can act on: what failed, that the
// move stands and the receipts are kept, and how to check the game: the nodes of a line.
export function receiptWarning(gameId, faults) {
  const last = faults.at(-1);
  const what = last.reply === "created" ? "the creation of the game"
    : last.reply === "state" ? `the state after event ${last.seq}`
    : last.first_seq === last.seq ? `event ${last.seq}` : `events ${last.first_seq} to ${last.seq}`;
  const count = faults.length === 1 ? "" : ` (${faults.length} receipts of this game have failed so far)`;
  return [
    `The server's receipt for ${what} did not check out: ${last.why}${count}. ` +
    "What you did still happened, but this receipt does not prove it to anyone. " +
    "Your browser kept it with the game's other receipts, marked as failed. Check the whole game: run ",
    el("code", { text: `umpire audit ${gameId}` }),
    ", or save your receipts (Audit tab) and give them with the game's export (",
    el("code", { text: `umpire export ${gameId}` }), ") to the ",
    el("a", { href: "verify", text: "verify page" }), ".",
  ];
}

// What the rules fix of a command, in words ("unit id SAM12, flight id S1, kind sam
// attack"): the fields of a one-case schema that allow one value; "" if none does.
function fixedFields(schema) {
  const props = (schema && !schema.anyOf && !schema.oneOf && schema.properties) || {};
  const said = [];
  for (const [name, field] of Object.entries(props)) {
    if (name === "type") continue;
    const value = "const" in field ? field.const
      : Array.isArray(field.enum) && field.enum.length === 1 ? field.enum[0] : undefined;
    if (value === undefined || value === null || typeof value === "object") continue;
    // A yes or no as the log says it ("exit no", where it read "exit false").
    const shown = typeof value === "boolean" ? (value ? "yes" : "no") : String(value).replace(/_/g, " ");
    said.push(`${name.replace(/_/g, " ")} ${shown}`);
  }
  return said.join(", ");
}

// The forms for `actions` (a state frame's), calling send(command, dice) on submit; each
// command said by its type in words with the ruleset's capitals ("Take AI turn", where a
// wargamer read "TakeAiTurn"), its exact type in the box's `data-action` and tooltip.
export function actionForms(actions, send, capitals = []) {
  const box = el("div", { class: "action-list" });
  // The sequence of play's next step: the action the rules mark (`next`, docs/protocol.md
  // "Legal actions": Nightfighter's phase step, Conflict of Heroes' AI turn), or, from a
  // server that marks none, the rules' one command when they allow one only (Downtown's
  // attack that waits for its roll, 3.4.4). It is said first (before the take-back), its
  // form first in the list, marked, and the only one open.
  const own = actions.filter((a) => a.type !== "TakeBack" && !UNIVERSAL.has(a.type));
  const next = own.find((a) => a.next) || (own.length === 1 ? own[0] : null);
  if (next) {
    // Its citation is the form's, just below (and the line's tooltip).
    const cited = next.rule && next.description.endsWith(` (${next.rule})`);
    const what = cited ? next.description.slice(0, -(next.rule.length + 3)) : next.description;
    const fixed = fixedFields(next.schema);
    const others = own.length === 1 ? "The rules take no other move until it is done."
      : "The sequence of play expects this now; the other moves listed are allowed too.";
    box.append(el("p", { class: "next-step", "data-action": next.type, title: next.description },
      el("strong", { text: "Next: " }), `${readable(what)}${fixed ? `: ${fixed}` : ""}. ${others}`));
  }
  const takeback = actions.find((a) => a.type === "TakeBack");
  if (takeback) {
    // One "Take back:" (the description starts with it), the citation in the tooltip.
    const cited = takeback.rule && takeback.description.endsWith(` (${takeback.rule})`);
    const text = cited ? takeback.description.slice(0, -(takeback.rule.length + 3)) : takeback.description;
    // The command it takes back in words, as its form was named ("Take back: Report
    // position (seq 10)", where it read ReportPosition).
    const label = text.replace(/^(Take back: )([A-Z][A-Za-z0-9]*)\b/, (_, head, type) => head + typeInWords(type, capitals));
    const button = el("button", { type: "button", id: "takeback", class: "takeback", title: takeback.description, text: `↶ ${label}` });
    button.addEventListener("click", () => send({ type: "TakeBack" }, undefined, button));
    box.append(el("p", { class: "takeback-row" }, button));
  }
  for (const action of next ? [next, ...actions.filter((a) => a !== next)] : actions) {
    if (action.type === "TakeBack") continue;
    const fields = commandFields(action.schema);
    const diceId = `dice-${action.type}`;
    const dice = NO_DICE.has(action.type) ? null : el("p", { class: "field dice-entry" },
      el("label", { for: diceId, text: "Your physical dice (optional)" }),
      el("span", { class: "hint", text: " faces of your own rolls, one roll per group: 3 5; 6 (empty: the server rolls)" }),
      el("input", { id: diceId, name: "physical-dice", type: "text", inputmode: "numeric", autocomplete: "off", "data-physical-dice": "" }));
    const named = typeInWords(action.type, capitals);
    const submit = el("button", { type: "submit", text: `Send: ${named}`, title: action.type });
    // The raw JSON of the command, behind a toggle, for power users: filled from the form
    // when it opens; while it is open, it is what is sent.
    const rawId = `raw-${action.type}`;
    const rawToggle = el("input", { type: "checkbox", id: `${rawId}-on`, "data-kind": "raw-toggle" });
    const rawText = el("textarea", { id: rawId, class: "raw-json", rows: 4, spellcheck: "false", hidden: true, "aria-label": `${action.type} as JSON` });
    rawToggle.addEventListener("change", () => {
      if (rawToggle.checked) {
        try {
          rawText.value = JSON.stringify({ ...fields.read(), type: action.type }, null, 1);
        } catch {
          rawText.value = JSON.stringify({ type: action.type });
        }
      }
      rawText.hidden = !rawToggle.checked;
      fields.node.hidden = rawToggle.checked;
    });
    const raw = el("p", { class: "field raw-toggle" }, el("label", { for: rawToggle.id }, rawToggle, " Edit as JSON (power users)"), rawText);
    // novalidate: the page reads the fields itself and the server checks the rest, so every
    // mistake is answered in the play panel, in words, not by a browser bubble.
    const form = el("form", { class: "action", "data-action": action.type, "aria-label": action.type, novalidate: true },
      fields.node, raw, dice, submit);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      let command;
      let faces;
      try {
        if (rawToggle.checked) {
          try {
            command = JSON.parse(rawText.value);
          } catch {
            throw new Error("the JSON is not valid");
          }
        } else {
          command = { ...fields.read(), type: action.type };
        }
        faces = dice ? parseDice(dice.querySelector("input").value) : undefined;
      } catch (err) {
        send(null, undefined, submit, err);
        return;
      }
      send(command, faces, submit);
    });
    const isNext = action === next;
    box.append(el("details", { class: isNext ? "action-box next" : "action-box", "data-action": action.type, "data-next": isNext ? "" : undefined, open: next ? isNext : actions.length <= 4 && !UNIVERSAL.has(action.type) },
      // The rule by the rulebook's own heading, as the event list cites it; the seed file
      // it comes from in the tooltip. The next step says so in words, not by colour alone.
      el("summary", { title: `${action.type}: ${action.description}` }, ...(isNext ? [el("span", { class: "next-mark", text: "▶ Next: " })] : []),
        el("strong", { text: named }), ` — ${readable(action.description)}`), form));
  }
  return box;
}

// Whether `frame` is one of the opponent's decisions for the play panel: one that weighed
// candidates or used dice, or one that says what it did in words (an explanation), unless
// it is the first event after the player's command (`command`, that command) and only
// records it: the player's own report (Downtown's "Acquisition reported", Nightfighter's
// fighter move), where nothing was decided. A table read without dice or candidates is
// still the opponent acting: Downtown's SAM reaction to a Movement Point (3.4.4) orders
// the attack the player must roll next.
export function opponentDecided(frame, command = null) {
  if (!isDecision(frame)) return false;
  const p = frame.payload;
  if ((p.candidates || []).length || (p.dice || []).length) return true;
  return Boolean(p.explanation) && !(command && records(frame, command));
}

// The values a command or an event holds, its type aside: every leaf as "field=value",
// the field's name without a plural "s" or an "_id" (Stall's `unit` is PlayerActed's
// `units`), a list's items under the list's name.
function leaves(value, key = "", into = new Set()) {
  if (Array.isArray(value)) for (const item of value) leaves(item, key, into);
  else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) if (k !== "type") leaves(v, k.replace(/_id$/, "").replace(/s$/, ""), into);
  } else if (value !== null && value !== undefined && value !== "") {
    into.add(`${key}=${JSON.stringify(value)}`);
  }
  return into;
}

// Whether the event after the player's command only records that command: it repeats a
// field the command gave, with its value (the fighter's path, the flight reported). A
// command that gives nothing (EndPhase, RunAdminPhase) asks the rules to act, so what
// comes first is theirs ("Phase began"), and so is an event that only names what the
// command chose for it under another name (the bomber moved that MoveBombers named to
// accelerate); an event that names the command by its type is the rules' verdict on it
// (Down in Flames' claim voided: "b1 is not an Ace Leader"), never a mere record of it.
//
// A command of no fields is recorded by an event that says it by its own name, in the
// rules' snake_case (Conflict of Heroes' Pass: PlayerActed of kind "pass"), never by one
// of the rules' steps it asked for ("Phase began" of phase "admin" after RunAdminPhase).
function records(frame, command) {
  const said = leaves(command);
  const p = frame.payload;
  if (!said.size) {
    const name = String(command.type).replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
    return Object.values(p).includes(name);
  }
  if (Object.values(p).includes(command.type)) return false;
  for (const leaf of leaves(p)) if (said.has(leaf)) return true;
  // A decision whose result is a value the command gave, under another name (Downtown's
  // ReportUnitStatus `unit_id` AAA3, its DecisionMade `result` AAA3): the player's report.
  if (p.result !== undefined && p.result !== null && typeof p.result !== "object") {
    const given = JSON.stringify(p.result);
    for (const leaf of said) if (leaf.slice(leaf.indexOf("=") + 1) === given) return true;
  }
  return false;
}

// Who decided: the umpire resolving the player's own rolls (a decision whose dice are all
// the player's, as Down in Flames' resolution of the player's attack), else the opponent.
// A step that weighed nothing and rolled nothing (a table read, a phase or turn begun) is
// the rules' own: "The rules: Combat phase", "The rules: SAM11: full acquisition ... ->
// salvo" (Downtown's SAM Reaction Table), not a choice the opponent made.
function decidedBy(frame, rolls) {
  const p = frame.payload;
  if (!(p.dice || []).length && !(p.candidates || []).length) return "The rules";
  const used = (p.dice || []).map((n) => rolls.get(n)).filter(Boolean);
  return used.length && used.every((r) => r.payload.owner === "player") ? "The umpire" : "The opponent";
}

// The opponent's decisions since the player's last command, each with its "why" open;
// `capitals`: the game's ruleset's, for the type in words (render.js kindOf).
export function decisionList(frames, rolls, capitals = []) {
  const list = el("ol", { class: "decisions" });
  for (const frame of frames) {
    const why = explanation(frame, rolls);
    why.open = true;
    // In plain words first ("The opponent: …"), the event and its "why" below.
    list.append(el("li", { "data-seq": frame.seq },
      el("p", { class: "opponent-said", text: `${decidedBy(frame, rolls)}: ${describe(frame)}` }),
      el("strong", { text: `#${frame.seq} ${kindOf(frame, capitals)}`, title: frame.event_type }), why));
  }
  return list;
}
