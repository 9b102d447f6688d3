// Rules disputes at the table (issue 40; docs/audit.md "Disputes"): a "Dispute" control on
// each decision or roll of the umpire, with a claim and, optionally, one of the ruleset's
// declared readings (from /rulesets.json); the finding shown side by side, as played and
// under the reading, with the seq where the two lines part, or "pending reveal"; the
// ruling (Uphold / Amend) where the page's role may rule, and the line an amendment
// superseded greyed, with the amended line marked.
import { inWords } from "./citations.js";
import { el, eventSaid } from "./render.js";

// The events that are no decision or roll of the umpire (engine/disputes.py).
const NOT_DISPUTABLE = ["GameCreated", "CommandRecorded", "SeedRevealed", "ClientSeedBound",
  "CommandTakenBack", "DisputeFiled", "DisputeFound", "DisputeRuled", "ExportSealed", "GameAmended"];

// `superseded`: the GameAmended payload whose ruling superseded the event, if any: a
// superseded seq is no longer part of the game, and the server refuses its dispute
// (`seq_superseded`), so none is offered.
export function isDisputable(frame, superseded = null) {
  return !NOT_DISPUTABLE.includes(frame.event_type) && !superseded;
}

// A row an amendment has just superseded: its "Dispute" control goes, unless a dispute
// was filed from it, whose finding and ruling stay shown (its form goes).
export function retireDisputeBox(row) {
  for (const box of row.querySelectorAll(":scope > details.dispute")) {
    if (box.dataset.dispute) for (const form of box.querySelectorAll(".dispute-form")) form.remove();
    else box.remove();
  }
}

// The finding as people read it: verdict, the two events where the lines part (in words,
// each event's JSON in its tooltip), the head's changes by their paths in words.
export function findingView(finding, capitals = []) {
  const box = el("div", { class: "finding" });
  if (!finding) {
    box.append(el("p", { class: "pending", text: "Finding: pending reveal (it rests on what players may not see yet; it is found when the game ends)." }));
    return box;
  }
  const verdict = finding.parts_at === 0
    ? "the same: under that reading every event up to now comes out as played"
    : `${finding.same ? "the same here" : "different"}; under that reading the game goes ` +
      `otherwise from seq ${finding.parts_at}`;
  box.append(el("p", { class: "verdict", text: `Finding: ${verdict}` }));
  if (finding.parts_at) {
    const side = (text) => el("td", { title: text, text: eventSaid(text, capitals) });
    box.append(el("table", { class: "side-by-side" },
      el("thead", {}, el("tr", {}, el("th", { text: "as played" }), el("th", { text: "under the reading" }))),
      el("tbody", {}, el("tr", {}, side(finding.as_played), side(finding.under_reading)))));
  }
  if (finding.stopped) box.append(el("p", { text: `The reading's line stops at ${finding.stopped}` }));
  if (finding.head && finding.head.length) {
    const list = el("ul", { class: "head-changes", "aria-label": "At the head" });
    for (const c of finding.head) list.append(el("li", { title: c.path, text: `${inWords(c.path)}: ${JSON.stringify(c.before)} → ${JSON.stringify(c.after)}` }));
    box.append(el("p", { text: "At the head:" }), list);
  }
  return box;
}

// The "Dispute" control of one event. `request` sends a wire message and answers it;
// `readings` are the game's ruleset's declared readings (/rulesets.json).
// `ruler`: whether the page's role may rule (mayRule), to offer the ruling at once.
// `capitals`: the ruleset's, for the finding's events in words (render.js eventSaid).
export function disputeBox(frame, { request, gameId, readings, ruler = false, capitals = [] }) {
  const box = el("details", { class: "dispute" });
  box.append(el("summary", { text: "Dispute" }));
  const claim = el("textarea", { maxlength: "1000", rows: "2", "aria-label": `Claim on seq ${frame.seq}` });
  const choice = el("select", { "aria-label": "Reading" }, el("option", { value: "", text: "the rules as played" }));
  for (const r of readings || []) {
    for (const v of r.alternatives) {
      const value = typeof v === "string" ? v : JSON.stringify(v);
      // The reading's name in words; its value as the server takes it (the option's value).
      choice.append(el("option", { value: `${r.name}=${value}`, text: `${inWords(r.name)} = ${value}` }));
    }
  }
  const send = el("button", { type: "button", text: "File dispute" });
  const out = el("div", { class: "dispute-answer", "aria-live": "polite" });
  send.addEventListener("click", async () => {
    send.disabled = true;
    const [reading, value] = choice.value ? choice.value.split("=") : ["", ""];
    try {
      const answer = await request({ type: "dispute", game_id: gameId, seq: frame.seq, claim: claim.value, reading, value });
      out.replaceChildren(el("p", { text: `Dispute ${answer.dispute} filed.` }), findingView(answer.finding, capitals));
      if (ruler && answer.finding) out.append(rulingControls(answer.dispute, { request, gameId }));
      box.dataset.dispute = String(answer.dispute);
    } catch (err) {
      out.replaceChildren(el("p", { class: "error", text: `${err.message}${err.code ? ` (${err.code})` : ""}` }));
      send.disabled = false;
    }
  });
  box.append(el("p", { class: "dispute-form" }, claim), el("p", { class: "dispute-form" }, choice, " ", send), out);
  return box;
}

// Whether the page's role may rule on this game's disputes (engine/disputes.py
// `check_ruling`): the player of a solo game, unless the game was created with the
// operator as its referee (GameCreated.referee); the operator always. The server
// decides; the page only leaves out the buttons of a role it would refuse.
export function mayRule(role, referee) {
  if (typeof role === "string" && role.startsWith("referee")) return true;
  return role === "player" && (referee || "player") !== "operator";
}

// "Uphold" and "Amend" for an open dispute with a finding: they send `rule`, and show
// the answer, or the refusal as the server words it.
export function rulingControls(disputeId, { request, gameId }) {
  const box = el("p", { class: "ruling", "data-dispute": String(disputeId) });
  const out = el("span", { class: "ruling-answer", "aria-live": "polite" });
  const buttons = ["uphold", "amend"].map((ruling) => {
    const button = el("button", { type: "button", "data-ruling": ruling, text: ruling === "uphold" ? "Uphold" : "Amend" });
    button.addEventListener("click", async () => {
      for (const b of buttons) b.disabled = true;
      try {
        const answer = await request({ type: "rule", game_id: gameId, dispute: disputeId, ruling });
        out.replaceChildren(el("span", { class: "ruled", text: `Ruled: ${answer.ruling} (seq ${answer.seq}).` }));
      } catch (err) {
        out.replaceChildren(el("span", { class: "error", text: `${err.message}${err.code ? ` (${err.code})` : ""}` }));
        for (const b of buttons) b.disabled = false;
      }
    });
    return button;
  });
  box.append(el("span", { text: `Rule on dispute ${disputeId}: ` }), ...buttons, " ", out);
  return box;
}

// What a GameAmended did, on its own row.
export function amendmentSummary(p) {
  const stopped = p.stopped ? `; stopped at ${p.stopped}` : "";
  return `the ruling on dispute ${p.dispute} amends the game from seq ${p.parts_from}: seqs ${p.parts_from} to ${p.superseded_to} superseded, ${p.reapplied} later command(s) re-applied${stopped}`;
}

// The note on an event of a line an amendment superseded, or of the amended line.
export function amendmentNote(row, { superseded, amended }) {
  if (superseded) {
    row.classList.add("superseded");
    row.dataset.supersededBy = String(superseded.dispute);
    row.append(el("span", { class: "amend-note", text: `superseded by the ruling on dispute ${superseded.dispute} (amended from seq ${superseded.parts_from})` }));
  }
  if (amended) {
    row.classList.add("amended");
    row.dataset.amendedBy = String(amended.dispute);
    row.append(el("span", { class: "amend-note", text: `the amended line: the ruling on dispute ${amended.dispute} (amended from seq ${amended.parts_from})` }));
  }
  return row;
}
