// Rules disputes at the table (issue 40; docs/audit.md "Disputes"): a "Dispute" control on
// each decision or roll of the umpire, with a claim and, optionally, one of the ruleset's
// declared readings (from /rulesets.json); the finding shown side by side, as played and
// under the reading, with the seq where the two lines part, or "pending reveal".
import { el } from "./render.js";

// The events that are no decision or roll of the umpire (engine/disputes.py).
const NOT_DISPUTABLE = ["GameCreated", "CommandRecorded", "SeedRevealed", "ClientSeedBound",
  "CommandTakenBack", "DisputeFiled", "DisputeFound", "DisputeRuled", "ExportSealed"];

export function isDisputable(frame) {
  return !NOT_DISPUTABLE.includes(frame.event_type);
}

// The finding as people read it: verdict, the two events where the lines part, the head.
export function findingView(finding) {
  const box = el("div", { class: "finding" });
  if (!finding) {
    box.append(el("p", { class: "pending", text: "Finding: pending reveal (it rests on what players may not see yet; it is found when the game ends)." }));
    return box;
  }
  const verdict = finding.parts_at === 0
    ? "the same: the two lines never part"
    : `${finding.same ? "the same here" : "different"}; the lines part at seq ${finding.parts_at}`;
  box.append(el("p", { class: "verdict", text: `Finding: ${verdict}` }));
  if (finding.parts_at) {
    box.append(el("table", { class: "side-by-side" },
      el("thead", {}, el("tr", {}, el("th", { text: "as played" }), el("th", { text: "under the reading" }))),
      el("tbody", {}, el("tr", {}, el("td", { text: finding.as_played }), el("td", { text: finding.under_reading })))));
  }
  if (finding.stopped) box.append(el("p", { text: `The reading's line stops at ${finding.stopped}` }));
  if (finding.head && finding.head.length) {
    const list = el("ul", { class: "head-changes", "aria-label": "At the head" });
    for (const c of finding.head) list.append(el("li", { text: `${c.path}: ${JSON.stringify(c.before)} → ${JSON.stringify(c.after)}` }));
    box.append(el("p", { text: "At the head:" }), list);
  }
  return box;
}

// The "Dispute" control of one event. `request` sends a wire message and answers it;
// `readings` are the game's ruleset's declared readings (/rulesets.json).
export function disputeBox(frame, { request, gameId, readings }) {
  const box = el("details", { class: "dispute" });
  box.append(el("summary", { text: "Dispute" }));
  const claim = el("textarea", { maxlength: "1000", rows: "2", "aria-label": `Claim on seq ${frame.seq}` });
  const choice = el("select", { "aria-label": "Reading" }, el("option", { value: "", text: "the rules as played" }));
  for (const r of readings || []) {
    for (const v of r.alternatives) {
      const value = typeof v === "string" ? v : JSON.stringify(v);
      choice.append(el("option", { value: `${r.name}=${value}`, text: `${r.name} = ${value}` }));
    }
  }
  const send = el("button", { type: "button", text: "File dispute" });
  const out = el("div", { class: "dispute-answer", "aria-live": "polite" });
  send.addEventListener("click", async () => {
    send.disabled = true;
    const [reading, value] = choice.value ? choice.value.split("=") : ["", ""];
    try {
      const answer = await request({ type: "dispute", game_id: gameId, seq: frame.seq, claim: claim.value, reading, value });
      out.replaceChildren(el("p", { text: `Dispute ${answer.dispute} filed.` }), findingView(answer.finding));
      box.dataset.dispute = String(answer.dispute);
    } catch (err) {
      out.replaceChildren(el("p", { class: "error", text: `${err.message}${err.code ? ` (${err.code})` : ""}` }));
      send.disabled = false;
    }
  });
  box.append(el("p", {}, claim), el("p", {}, choice, " ", send), out);
  return box;
}
