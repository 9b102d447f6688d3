// The end screen (issue #41, item 3): the result as the rules state it (the GameEnded
// event's result, cited), how the last turn got there (the opponent's and the rules'
// final decisions, in their own words), what is left on the board by side, the final
// tracks that tell a score (losses, hits, points), the final reveal of the dice seed, and
// where to take the log to check it (export, the verify page, the receipts).
import { readable } from "./citations.js";
import { describe, el, wording } from "./render.js";

// Tracks that tell how a game went, by the words of their keys.
const TELLING = /(win|victor|outcome|result|score|point|\bvp\b|loss|lost|destroy|shot|kill|damage|hit|casualt|surviv|escap|left)/i;

const sentence = (text) => (text ? text[0].toUpperCase() + text.slice(1) : "");

// Who won as the end states it (GameEnded.winner), said to the player as "you" and to any
// other role as "the player"; `umpire log` and `play` say the same (events/rules_words.py
// WINNER_SAID). An end that does not say (the player's EndGame, an old log) has no line.
const WINNER = {
  player: ["You win", "The player wins"],
  opponent: ["You lose", "The player loses"],
  draw: ["A draw", "A draw"],
  // The result below says what each side came to, and whose judgement victory is.
  none_stated: [
    "No winner declared: the solo rules state no victory condition",
    "No winner declared: the solo rules state no victory condition",
  ],
};

/**
 * @param {object} o
 * @param {object} o.state  the final state frame (its `state`, `map`, `seq`)
 * @param {object[]} o.frames  the game's event frames, in order
 * @param {object} [o.names]  the ruleset's labels (/rulesets.json entry)
 * @param {string} o.gameId
 * @param {string} [o.role]  the role the page sees the game as ("player": "You win")
 * @param {(seq:number)=>void} [o.onPick]  show the game at a seq
 */
export function endScreen({ state, frames, names, gameId, role }) {
  const words = wording(names);
  const ended = [...frames].reverse().find((f) => f.event_type === "GameEnded");
  const reveal = [...frames].reverse().find((f) => f.event_type === "SeedRevealed");
  const box = [el("h2", { id: "end-heading", text: "Game over" })];
  const won = ended && ended.payload && WINNER[ended.payload.winner];
  if (won) {
    box.push(el("p", { class: `winner winner-${ended.payload.winner}`, "data-winner": ended.payload.winner },
      el("strong", { text: won[role === "player" ? 0 : 1] })));
  }
  const result = ended && ended.payload ? readable(ended.payload.result) : "the game has ended";
  box.push(el("p", { class: "result", "data-result": result }, el("strong", { text: sentence(result) })));
  if (ended && ended.payload && ended.payload.rule) {
    box.push(el("p", { class: "cite", title: ended.payload.rule, text: `By ${readable(ended.payload.rule)}` }));
  }

  // The last batch: what the rules did after the player's last command, in words.
  const lastCommand = [...frames].reverse().find((f) => f.event_type === "CommandRecorded");
  const finalSteps = frames
    .filter((f) => (!lastCommand || f.seq > lastCommand.seq) && f.payload && f.payload.explanation)
    .slice(-6);
  if (finalSteps.length) {
    box.push(el("h3", { text: "How it ended" }),
      el("ul", { class: "final-steps" }, ...finalSteps.map((f) => el("li", { text: describe(f) }))));
  }

  // What is left on the board, by side (the map the ruleset declares).
  const map = state.map || {};
  const pieces = map.pieces || map.aircraft || [];
  if (pieces.length || map.grid || map.aircraft) {
    // A diagram's aircraft that is out (lost, shot down, off the board) is no longer on
    // the board: it is said apart, with its state in words, never counted as left.
    let sides = new Map();
    for (const p of pieces) {
      const side = sides.get(p.side || "?") || { left: [], out: [] };
      // Its state as the diagram's legend says it (board.js: "spad_xiii" as "spad xiii").
      if (p.out) side.out.push(p.state && p.state.length ? `${p.id} (${p.state.join(", ").replace(/_/g, " ")})` : p.id);
      else side.left.push(p.id);
      sides.set(p.side || "?", side);
    }
    const player = new Set(map.player_sides || []);
    // A side of the player's with nothing on the map is said too, first: Nightfighter's
    // fighter that left the map, Conflict of Heroes' Units all destroyed, were not named.
    for (const side of [...player].reverse()) {
      if (!sides.has(side)) sides = new Map([[side, { left: [], out: [] }], ...sides]);
    }
    const lines = [...sides].map(([side, { left, out }]) =>
      el("li", { text: `${words.key(side)}${player.has(side) ? " (yours)" : ""}: ` +
        (left.length ? `${left.length} left — ${left.join(", ")}` : "none left") +
        (out.length ? `; out of play — ${out.join("; ")}` : "") }));
    box.push(el("h3", { text: "On the board at the end" }),
      lines.length ? el("ul", { class: "survivors" }, ...lines) : el("p", { text: "Nothing is left on the board." }));
  }

  // The final tracks that tell the score, by the ruleset's labels.
  const final = state.state && typeof state.state === "object" ? state.state : {};
  const telling = Object.entries(final).filter(([k, v]) => TELLING.test(k) && (v === null || typeof v !== "object"));
  if (telling.length) {
    box.push(el("h3", { text: "The final count" }), el("dl", { class: "tracks" },
      ...telling.flatMap(([k, v]) => [el("dt", { text: words.key(k) }), el("dd", { text: words.value(k, v) })])));
  }

  // The final reveal: every server roll can now be recomputed by anyone with the log.
  box.push(el("h3", { text: "Check it" }));
  box.push(el("p", {
    class: "reveal",
    text: reveal && reveal.payload
      ? `The dice seed is revealed (${reveal.payload.seed.slice(0, 16)}…): every roll of the game can now be recomputed from the log.`
      : "The dice seed is revealed when the game ends: the log then lets anyone recompute every roll.",
  }));
  box.push(el("p", {}, "Export the log with ", el("code", { text: `umpire export ${gameId}` }),
    ", then check it on the ", el("a", { href: "verify", class: "verify-link" , text: "verify page" }),
    " (with the receipts this browser kept: the Audit tab's “Save receipts”)."));
  return box;
}
