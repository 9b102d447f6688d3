// The umpire viewer: open a game with a credential, follow its events live, read the dice
// log and every decision's explanation, and scrub back through the game.
//
// The scrubber shows the state at any seq: the states the server pushes after each batch
// (subscribe `views`), and for a past seq the reader picks the exact state the server
// folds on request (a `view` with `at_seq`, one at a time, the latest pick wins); until it
// arrives, the nearest captured state is shown and labelled as such. Following the head
// asks the server nothing: a long game opens, and a big opponent step lands, on the
// pushed state alone, within the server's admission budget (docs/protocol.md). Events after the
// chosen seq are hidden from the list and the dice log.
//
// The page is a game table first (issue #41): the map and the legal actions; the game log
// is a virtual list (eventlist.js) and each event costs the page a few map writes, its DOM
// work done once per animation frame for all the events that came (flush), so a long game
// opens as fast as its frames arrive. Hashes, receipts and the dice log are behind the
// Audit tab; a finished game shows its end screen (ending.js).
import { UmpireClient } from "./umpire.js";
import { acronyms, loadCitations, typeInWords } from "./citations.js";
import { boardOf, diceRow, el, eventRow, kindOf, stateDetails } from "./render.js";
import { EventList } from "./eventlist.js";
import { endScreen } from "./ending.js";
import { amendmentNote, amendmentSummary, disputeBox, isDisputable, mayRule, retireDisputeBox, rulingControls } from "./disputes.js";
import { actionForms, decisionList, errorText, opponentDecided, receiptWarning, shortHash, whereWeAre } from "./play.js";
import { releaseHexField, settingsFields, useLabels } from "./forms.js";

const $ = (id) => document.getElementById(id);
const wsUrl = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;

const viewer = {
  client: null,
  gameId: null,
  role: null,
  head: 0,
  seq: 0, // the seq shown
  follow: true, // move with new events while showing the latest seq
  frames: new Map(),
  rolls: new Map(), // roll number -> DiceRolled frame
  views: new Map(), // seq -> state message captured at that seq
  wanted: null, // a seq from the link, shown once the events reach it
  shownView: null,
  notice: "", // a standing notice for the game shown (its log was rewound)
  decisions: [], // the opponent's decision frames since the player's last command
  playedSeq: -1, // the seq of the view whose actions are on the table
  pinned: true, // the event list follows the head unless the user scrolled it up
  kept: null, // the player credential kept in the fragment (a game created on this page)
  credential: null, // the credential the game shown was opened with
  loadedFrom: 1, // the first seq of the log this page has read (older ones: loadEarlier)
  loadedTo: 0, // the last seq read: the log's rows stop there (the head's state may be ahead)
  openedAt: 0, // the head when the game was opened: the catch-up to it is drawn at once
  linked: null, // the game id a link named (#game=), opened with an operator token
  ruleset: null, // the game's ruleset (its GameCreated event), for its labels
  newDice: [], // DiceRolled frames not yet in the dice log
  decisionsDirty: false,
  echo: null, // the player's command, while the next event is the first after it (play.js opponentDecided)
  diceLimit: Infinity, // the dice log shows the rolls up to this seq
  ended: null, // the final state, once the game has ended
  opening: false, // the log is streaming in before the first state: the list waits
  referee: "player", // who rules this game's disputes besides the operator (GameCreated)
  ruled: new Set(), // the disputes ruled (DisputeRuled)
  superseded: new Map(), // seq -> the GameAmended payload whose ruling superseded it
  amended: new Map(), // seq -> the GameAmended payload whose amended line it is in
  amending: new Map(), // a ruling batch's command_id -> its GameAmended payload
  receiptFaults: [], // the receipts that failed the client's check on arrival, of every game
};
const RECENT = 200; // events of the log read when a game opens: the last turns, its end
let pageReady = Promise.resolve(); // the citations and the ruleset list, read at start
const eventList = new EventList(document.getElementById("events"), (seq) =>
  withDispute(eventRow(viewer.frames.get(seq), viewer.rolls, (picked) => show(picked), capitalsOf()), viewer.frames.get(seq)));

// The ruleset's entry of /rulesets.json (its labels), once both are known.
const namesOf = () => rulesets.find((r) => r.name === viewer.ruleset) || undefined;

// The words the ruleset writes in capitals (its entry's acronyms: AAA, SAM), for its event
// types in words (render.js kindOf); none until its entry is known. Read once per entry.
let capitalsRead = { entry: undefined, capitals: new Set() };
function capitalsOf() {
  const entry = namesOf();
  if (entry !== capitalsRead.entry) capitalsRead = { entry, capitals: acronyms(entry) };
  return capitalsRead.capitals;
}

function status(text) {
  $("status").textContent = text;
}

// What the status line says while a game is shown, with any standing notice.
function watching(detail = "") {
  status(`watching ${viewer.gameId} (${viewer.role})${detail}${viewer.notice ? `. ${viewer.notice}` : ""}`);
}

function readHash() {
  const params = new URLSearchParams(location.hash.slice(1));
  const seq = Number.parseInt(params.get("seq") || "", 10);
  return {
    credential: params.get("credential"), game: params.get("game"), seq: Number.isFinite(seq) ? seq : null,
    keep: params.get("keep") === "1",
  };
}

// A game created on this page keeps its player credential in the fragment (never sent to
// the server), so a reload resumes it; `keep=1` marks such a link.
function tableLink(gameId, credential) {
  return `#${new URLSearchParams({ game: gameId, credential, keep: "1" })}`;
}

function shareLink(seq) {
  const url = new URL(location.href);
  url.hash = new URLSearchParams({ game: viewer.gameId, seq: String(seq) }).toString();
  return url.toString();
}

function reset() {
  viewer.head = 0;
  viewer.seq = 0;
  viewer.follow = true;
  viewer.frames.clear();
  viewer.rolls.clear();
  viewer.views.clear();
  viewer.shownView = null;
  viewer.decisions = [];
  viewer.playedSeq = -1;
  viewer.newDice = [];
  viewer.decisionsDirty = false;
  viewer.echo = null;
  viewer.diceLimit = Infinity;
  viewer.ended = null;
  viewer.loadedFrom = 1;
  viewer.loadedTo = 0;
  viewer.openedAt = 0;
  viewer.referee = "player";
  viewer.ruled.clear();
  viewer.superseded.clear();
  viewer.amended.clear();
  viewer.amending.clear();
  eventList.clear();
  $("earlier").hidden = true;
  $("actions").replaceChildren();
  delete $("actions").dataset.ended;
  delete document.body.dataset.ended;
  $("decisions").replaceChildren();
  $("play-error").hidden = true;
  $("play-answer").textContent = "";
  $("play-where").hidden = true;
  $("end-screen").hidden = true;
  $("end-screen").replaceChildren();
  document.querySelector("#dice tbody").replaceChildren();
  $("state").replaceChildren();
  $("state-details").replaceChildren();
}

// The receipts of a game that failed their check when they arrived, on an earlier page
// of this browser: kept marked in IndexedDB, so a reload still warns of them.
async function keptFaults(gameId) {
  let anchors = [];
  try {
    anchors = await viewer.client.receipts.anchors(gameId);
  } catch {
    return; // no receipts to read: nothing to warn of
  }
  for (const a of anchors) {
    if (a.kind !== "receipt" || !a.client_check) continue;
    const known = viewer.receiptFaults.some((f) => f.game_id === gameId && f.seq === a.head_seq && f.command_id === a.command_id);
    if (!known) {
      viewer.receiptFaults.push({ game_id: gameId, reply: a.reply, command_id: a.command_id, first_seq: a.first_seq || a.head_seq, seq: a.head_seq, why: a.client_check });
    }
  }
  if (gameId === viewer.gameId) warnOfReceipts();
}

// The warning of the game shown's receipts that failed their check (kept past a reset: a
// created game's own receipts are checked before it is opened).
function warnOfReceipts() {
  const faults = viewer.receiptFaults.filter((f) => f.game_id === viewer.gameId);
  const box = $("receipt-warning");
  box.hidden = !faults.length;
  box.replaceChildren(...(faults.length ? receiptWarning(viewer.gameId, faults) : []));
  box.dataset.faults = String(faults.length);
}

// Older events, read when asked for: a second connection with the same credential reads
// the CHUNK events before the first one shown, then closes (the live subscription is
// left alone). The dice log is rebuilt in order.
const CHUNK = 1000;
let loading = null;
async function loadEarlier() {
  if (loading || viewer.loadedFrom <= 1 || !viewer.gameId) return loading;
  const gameId = viewer.gameId;
  const until = viewer.loadedFrom - 1;
  const from = Math.max(0, until - CHUNK);
  const side = new UmpireClient(wsUrl);
  $("earlier").disabled = true;
  $("earlier").textContent = `Reading events ${from + 1} to ${until}…`;
  loading = (async () => {
    const older = [];
    try {
      await side.connect();
      await side.auth(viewer.credential);
      await new Promise((done, failed) => {
        side.subscribe(gameId, from, (frame) => {
          if (frame.seq <= until) older.push(frame);
          if (frame.seq >= until) done();
        }).catch(failed);
      });
    } catch (err) {
      status(`the earlier events could not be read: ${err.message}`);
    } finally {
      side.close();
    }
    if (gameId !== viewer.gameId || !older.length) return;
    for (const frame of older) {
      viewer.frames.set(frame.seq, frame);
      if (frame.event_type === "DiceRolled" && frame.payload) viewer.rolls.set(frame.payload.roll, frame);
      if (frame.event_type === "GameCreated" && frame.payload) chooseRuleset(frame.payload.ruleset);
      noteDispute(frame);
    }
    viewer.loadedFrom = older[0].seq;
    eventList.from = viewer.loadedFrom;
    const rolls = [...viewer.frames.values()].filter((f) => f.event_type === "DiceRolled" && f.payload)
      .sort((a, b) => a.seq - b.seq).map((frame) => {
        const row = diceRow(frame);
        row.hidden = frame.seq > viewer.diceLimit;
        return row;
      });
    document.querySelector("#dice tbody").replaceChildren(...rolls);
    eventList.draw();
  })();
  try {
    await loading;
  } finally {
    loading = null;
    earlierNote();
  }
}

// Says how much of the log is read, with the button that reads more.
function earlierNote() {
  const button = $("earlier");
  button.hidden = viewer.loadedFrom <= 1;
  button.disabled = false;
  button.textContent = `Read the ${Math.min(CHUNK, viewer.loadedFrom - 1)} events before #${viewer.loadedFrom}`;
}

// The Table and Audit tabs: the game, or what a verifier needs.
function tab(which) {
  $("panes").hidden = which !== "table";
  $("audit").hidden = which !== "audit";
  $("tab-table").setAttribute("aria-pressed", String(which === "table"));
  $("tab-audit").setAttribute("aria-pressed", String(which === "audit"));
  if (which === "table") eventList.draw();
}

async function connected() {
  if (!viewer.client) {
    viewer.client = new UmpireClient(wsUrl);
    viewer.client.onStatus = (s) => status(s === "connected" && viewer.gameId ? `watching ${viewer.gameId}` : s);
    viewer.client.onReceiptFault = (fault) => {
      viewer.receiptFaults.push(fault);
      warnOfReceipts();
    };
    await viewer.client.connect();
  }
  return viewer.client;
}

async function open(credential) {
  if (viewer.kept && viewer.kept !== credential) viewer.kept = null;
  try {
    await Promise.all([connected(), pageReady]);
    const auth = await viewer.client.auth(credential);
    // A game credential names its game; the operator token opens any game, as the
    // referee, named in the Game id field (or the link's #game=).
    const gameId = auth.game_id || $("game-id").value.trim() || viewer.linked || "";
    const role = auth.game_id ? auth.role : "referee (operator)";
    if (!gameId) {
      status("operator token accepted: enter the id of the game to open as the referee");
      $("game-id").focus();
      return;
    }
    if (viewer.gameId && viewer.gameId !== gameId) await viewer.client.unsubscribe(viewer.gameId).catch(() => {});
    reset();
    if (viewer.gameId !== gameId) viewer.notice = "";
    viewer.gameId = gameId;
    viewer.role = role;
    warnOfReceipts();
    keptFaults(gameId);
    viewer.opening = true;
    $("game-label").textContent = `Game ${gameId}, seen as the ${role}`;
    $("timeline").hidden = false;
    $("tabs").hidden = false;
    tab("table");
    $("start").open = false; // the game first: the pickers fold away above it
    $("play").hidden = auth.role !== "player";
    watching();
    viewer.credential = credential;
    // The game first (issue #41 item 4): the head's state (map, actions) is asked for and
    // drawn before any of the log; the log is followed from RECENT events before the head,
    // and older events are read only when asked for (loadEarlier). A catch-up is paced
    // by the server's budgets (2 events a unit): a 10,000-event log takes it ~25 s.
    const [head] = await Promise.all([
      viewer.client.view(gameId),
      viewer.client.request({ type: "list_games" }).then((listed) => {
        const mine = (listed.games || []).find((g) => g.game_id === gameId);
        if (mine) chooseRuleset(mine.ruleset);
      }).catch(() => {}),
    ]);
    if (gameId !== viewer.gameId) return;
    // Who may rule, from the head's frame: a long game opened at its last RECENT events
    // never reads its GameCreated (which says it again when it is read).
    viewer.referee = head.referee || "player";
    const from = Math.max(0, head.seq - RECENT);
    viewer.loadedFrom = from + 1;
    eventList.from = from + 1;
    viewer.head = head.seq;
    viewer.loadedTo = from;
    viewer.openedAt = head.seq;
    if (viewer.wanted !== null && viewer.wanted > head.seq) {
      // A link past the game's end (a typo, a link of another server's game): said in
      // words, and the game opened at its latest seq rather than waiting for it.
      viewer.notice = pastHead("The link asks for", viewer.wanted, head.seq, head.ended);
      viewer.wanted = null;
      linkAt(head.seq);
    }
    viewer.seq = viewer.wanted !== null && viewer.wanted <= head.seq ? viewer.wanted : head.seq;
    viewer.follow = viewer.seq === head.seq;
    if (viewer.wanted !== null && viewer.wanted <= head.seq) viewer.wanted = null;
    onState(head);
    earlierNote();
    await viewer.client.subscribe(gameId, from, onEvent, {
      onEnded: (err) => ended(err, credential), onState, views: true,
    });
  } catch (err) {
    if (err.code === "from_seq_past_head" && !viewer.reopened) return reopenAtHead(err, credential);
    status(`error: ${err.message}${err.code ? ` (${err.code})` : ""}`);
    $("game-label").textContent = "";
  }
}

// "<who> seq 60, past the game's end (its last event is seq 45): showing seq 45, the
// latest": a seq past the head in a wargamer's words, where the server's refusal reads
// `from_seq_past_head` and "allowed: 0 to 45".
function pastHead(who, asked, head, ended) {
  const end = ended ? "the game's end" : "the game's latest event";
  return `${who} seq ${asked}, past ${end} (its last event is seq ${head}): showing seq ${head}, the latest`;
}

// The address bar's link at `seq` (a link past the head would say the wrong seq again).
function linkAt(seq) {
  const params = new URLSearchParams(location.hash.slice(1));
  if (!params.has("seq")) return;
  params.set("seq", String(seq));
  history.replaceState(null, "", `#${params}`);
}

// The server refused a subscription past the log's end (`from_seq_past_head`: no event
// that far was ever sent, so a mistaken seq, not a lost one): said in words, and the game
// opened again at its latest seq. Once: a second refusal is shown as the server words it.
function reopenAtHead(err, credential) {
  const d = err.details || {};
  viewer.notice = pastHead("The page asked for the events after", d.from_seq, d.head, false);
  viewer.reopened = true;
  open(credential).finally(() => { viewer.reopened = false; });
}

// The server ended the subscription. log_rewound: its store lost events shown here, so
// the game is read again from the log as it now is; credential_revoked: nothing to show.
function ended(err, credential) {
  if (err.code === "from_seq_past_head") {
    reopenAtHead(err, credential);
    return;
  }
  if (err.code === "log_rewound") {
    viewer.notice = `The server's log lost the events after seq ${err.details.head}: shown again from its log`;
    open(credential);
    return;
  }
  status(`error: ${err.message} (${err.code})`);
}

// After the seed is revealed every role may see every event: read the log again and put
// the full events in place of the redacted ones (the captured states stay).
async function rereadRevealed() {
  const gameId = viewer.gameId;
  const redacted = [...viewer.frames.values()].some((f) => f.redacted);
  if (!redacted) return;
  await viewer.client.unsubscribe(gameId).catch(() => {});
  if (gameId !== viewer.gameId) return;
  await viewer.client.subscribe(gameId, viewer.loadedFrom - 1, (frame) => {
    const old = viewer.frames.get(frame.seq);
    if (!old) return onEvent(frame);
    if (!old.redacted) return;
    viewer.frames.set(frame.seq, frame);
    if (frame.event_type === "DiceRolled" && frame.payload) {
      viewer.rolls.set(frame.payload.roll, frame);
      const tr = document.querySelector(`#dice tbody tr[data-seq="${frame.seq}"]`);
      if (tr) {
        const row = diceRow(frame);
        row.hidden = frame.seq > viewer.diceLimit;
        tr.replaceWith(row);
      }
    }
    eventList.refresh(frame.seq);
  }, { onState, view: true, views: true }).catch((err) => {
    // A subscribe is refusable over budget (after a costly last turn): asked again later.
    if (err.code === "over_budget") setTimeout(rereadRevealed, 1000 * Math.min(30, Number(err.details?.retry_after) || 1));
    else status(`error: ${err.message}${err.code ? ` (${err.code})` : ""}`);
  });
}

// A "Dispute" control on each decision or roll, the ruling on an open dispute's finding
// where the role may rule, and the notes of an amendment (clients/web/disputes.js).
function withDispute(row, frame) {
  if (!frame) return row;
  amendmentNote(row, { superseded: viewer.superseded.get(frame.seq), amended: viewer.amended.get(frame.seq) });
  if (frame.event_type === "GameAmended" && frame.payload) {
    row.classList.add("amendment");
    row.append(el("span", { class: "amend-note", text: amendmentSummary(frame.payload) }));
  }
  if (!viewer.client) return row;
  const request = (m) => viewer.client.request(m);
  const ruler = mayRule(viewer.role, viewer.referee);
  if (frame.event_type === "DisputeFound" && frame.payload && ruler && !viewer.ruled.has(frame.payload.dispute)) {
    row.append(rulingControls(frame.payload.dispute, { request, gameId: viewer.gameId }));
  }
  if (!isDisputable(frame, viewer.superseded.get(frame.seq))) return row;
  const readings = namesOf()?.readings;
  row.append(disputeBox(frame, { request, gameId: viewer.gameId, readings, ruler, capitals: capitalsOf() }));
  return row;
}

// The disputes' events: who may rule, which disputes are open, and the line an
// amendment superseded (GameAmended `parts_from` .. `superseded_to`) and the amended line
// (the events after it in its ruling's batch). A row already drawn is changed in place, not
// drawn again, so that a dispute box keeps its finding and the ruling's answer.
function noteDispute(frame) {
  const p = frame.payload;
  if (!p) return;
  if (frame.event_type === "GameCreated") viewer.referee = p.referee || "player";
  else if (frame.event_type === "DisputeRuled") {
    viewer.ruled.add(p.dispute);
    for (const offer of document.querySelectorAll(`#events li[data-type="DisputeFound"] .ruling[data-dispute="${p.dispute}"]`)) offer.remove();
  } else if (frame.event_type === "GameAmended") {
    viewer.amending.set(frame.command_id, p);
    for (let seq = p.parts_from; seq <= p.superseded_to; seq += 1) {
      // A later amendment that returns behind an earlier one spans seqs superseded
      // already: each keeps the amendment that first superseded it, as its row says.
      if (viewer.superseded.has(seq)) continue;
      viewer.superseded.set(seq, p);
      const row = document.getElementById(`seq-${seq}`);
      if (row && !row.classList.contains("superseded")) amendmentNote(row, { superseded: p });
      if (row) retireDisputeBox(row);
    }
  } else if (viewer.amending.has(frame.command_id)) viewer.amended.set(frame.seq, viewer.amending.get(frame.command_id));
}

// One event: a few map writes; the page's DOM is brought up to date once per frame
// (flush), however many events came in it.
function onEvent(frame) {
  if (frame.seq <= viewer.head && viewer.frames.has(frame.seq)) return;
  if (frame.event_type === "SeedRevealed") setTimeout(rereadRevealed, 0);
  if (frame.event_type === "GameCreated" && frame.payload) chooseRuleset(frame.payload.ruleset);
  viewer.frames.set(frame.seq, frame);
  noteDispute(frame);
  viewer.head = Math.max(viewer.head, frame.seq);
  viewer.loadedTo = Math.max(viewer.loadedTo, frame.seq);
  if (frame.event_type === "DiceRolled" && frame.payload) {
    viewer.rolls.set(frame.payload.roll, frame);
    viewer.newDice.push(frame);
  }
  noteDecision(frame);
  if (viewer.wanted !== null && viewer.head >= viewer.wanted) {
    viewer.seq = viewer.wanted;
    viewer.wanted = null;
    viewer.follow = false; // a linked seq stays put while the rest of the log arrives
  } else if (viewer.follow) {
    viewer.seq = viewer.head;
  }
  schedule();
}

let scheduled = false;
function schedule() {
  if (scheduled) return;
  scheduled = true;
  requestAnimationFrame(flush);
  setTimeout(flush, 100); // a page in the background gets no animation frames
}

// The events that came since the last flush, onto the page: the head, the dice log, the
// opponent's decisions, the log's rows in view, the seq shown.
function flush() {
  if (!scheduled) return;
  scheduled = false;
  if (viewer.newDice.length) {
    const rows = viewer.newDice.map((frame) => {
      const row = diceRow(frame);
      row.hidden = frame.seq > viewer.diceLimit;
      return row;
    });
    viewer.newDice = [];
    document.querySelector("#dice tbody").append(...rows);
  }
  if (viewer.decisionsDirty) {
    viewer.decisionsDirty = false;
    $("decisions").replaceChildren(viewer.decisions.length
      ? decisionList(viewer.decisions, viewer.rolls, capitalsOf())
      : Object.assign(document.createElement("p"), { className: "note", textContent: "None since your last command." }));
  }
  $("head").textContent = viewer.head;
  $("scrubber").max = viewer.head;
  $("seq-input").max = viewer.head;
  watching(`: ${viewer.head} events`);
  const follow = viewer.follow; // a linked seq stays put even when the head reaches it
  show(viewer.seq, { quiet: follow });
  viewer.follow = follow;
}

// The table follows the opponent: a player's command starts a new list of its decisions.
function noteDecision(frame) {
  const p = frame.payload;
  const echo = viewer.echo;
  viewer.echo = null;
  if (frame.event_type === "CommandRecorded" && p && p.role === "player") {
    viewer.decisions = [];
    viewer.echo = p.command || { type: p.command_type };
  } else if (opponentDecided(frame, echo)) viewer.decisions.push(frame);
  else return;
  viewer.decisionsDirty = true;
}

// The legal actions of the newest state at the head, as forms (players only).
function renderPlay(state) {
  if (state.seq < viewer.playedSeq) return;
  $("head-receipt").textContent = `Head: seq ${state.seq} · hash ${shortHash(state.head_hash)}… · state ${shortHash(state.state_hash)}…`;
  $("head-receipt").dataset.headSeq = state.seq;
  $("head-receipt").title = `head hash ${state.head_hash}\nstate hash ${state.state_hash}`;
  if (state.seq === viewer.playedSeq) return;
  viewer.playedSeq = state.seq;
  releaseHexField(); // the map no longer highlights what a replaced form allowed
  const actions = $("actions");
  actions.dataset.seq = state.seq;
  // Where the game stands (the turn, the phase), above the moves it allows.
  const where = state.ended ? "" : whereWeAre(state.state, namesOf());
  $("play-where").textContent = where;
  $("play-where").hidden = !where;
  if (state.ended) {
    actions.replaceChildren(Object.assign(document.createElement("p"), { className: "note", textContent: "The game is over: no more moves." }));
    actions.dataset.ended = "1";
    return;
  }
  useLabels(namesOf()?.labels); // the forms say fields as the state pane does
  actions.replaceChildren(actionForms(state.actions || [], sendCommand, capitalsOf()));
  // A new set of moves starts at its top (the next step, the take-back): the pane scrolls,
  // and the place the last form was read at means nothing in the new list.
  actions.scrollTop = 0;
}

// Each answer (accepted, refused, or a form the page could not read) is counted on the
// body (data-answers), so a script can wait for the answer to the command it sent.
function answered() {
  document.body.dataset.answers = String(Number(document.body.dataset.answers || 0) + 1);
}

async function sendCommand(command, dice, button, invalid) {
  const shown = $("play-error");
  shown.hidden = true;
  $("play-answer").textContent = ""; // only the latest outcome is shown
  if (invalid) {
    shown.textContent = `error (form): ${invalid.message}`;
    shown.dataset.code = "form";
    shown.hidden = false;
    answered();
    return;
  }
  button.disabled = true;
  try {
    const accepted = await viewer.client.send(viewer.gameId, command, { dice });
    // The answer in a line; its receipt (head and state hashes) is on the Audit tab.
    $("play-answer").textContent = `✓ ${typeInWords(String(command.type), capitalsOf())} done (events ${accepted.seqs[0]}–${accepted.seqs.at(-1)})` +
      `${dice ? ` with your dice ${JSON.stringify(dice)}` : ""}${accepted.duplicate ? " (duplicate)" : ""}`;
    $("play-answer").title = `receipt: head seq ${accepted.head_seq}, head hash ${accepted.head_hash}, state hash ${accepted.state_hash}`;
    $("play-answer").dataset.headSeq = accepted.head_seq;
  } catch (err) {
    shown.textContent = errorText(err, capitalsOf());
    // The rule as the rulebook heads it in the text, its seed file and number in the tooltip.
    shown.title = (err.details && err.details.rule) || "";
    shown.dataset.code = err.code || "";
    shown.hidden = false;
  } finally {
    button.disabled = false;
    answered();
  }
}

// A state the server sent: the subscribe's, then one after each batch (subscribe
// `views`), given once the events up to it are in. A success: the status is the game's again.
function onState(state) {
  if (state.game_id !== viewer.gameId) return;
  flush(); // the events up to this state are in: put them on the page first
  if (viewer.opening) {
    viewer.opening = false;
    eventList.setLimit(Math.min(viewer.seq, viewer.loadedTo)); // the rows read so far
  }
  viewer.views.set(state.seq, state);
  if (viewer.role === "player" && state.seq >= viewer.head) renderPlay(state);
  if (state.ended && state.seq >= viewer.head) renderEnd(state);
  watching(`: ${viewer.head} events`);
  renderState();
}

// The end screen, above the (now empty) actions, for every role.
function renderEnd(state) {
  viewer.ended = state;
  const screen = $("end-screen");
  screen.replaceChildren(...endScreen({ state, frames: [...viewer.frames.values()], names: namesOf(), gameId: viewer.gameId, role: viewer.role }));
  screen.hidden = false;
  document.body.dataset.ended = "1";
}

function laterNote() {
  const later = viewer.head - viewer.seq;
  $("later-note").hidden = later <= 0;
  $("later-note").textContent = later > 0
    ? `Showing the game at seq ${viewer.seq}: ${later} later event${later === 1 ? " is" : "s are"} hidden. Use “Latest” to see everything.`
    : "";
}

function show(seq, { quiet = false } = {}) {
  if (!viewer.head) return;
  seq = Math.min(Math.max(1, seq), viewer.head);
  viewer.seq = seq;
  viewer.follow = seq === viewer.head;
  $("scrubber").value = seq;
  $("scrubber").setAttribute("aria-valuetext", `seq ${seq} of ${viewer.head}`);
  $("seq-input").value = seq;
  eventList.current = seq;
  // Following the head: with the stream's next draw; while the game opens, none at all
  // (the map and the actions first, the log after them).
  const rows = Math.min(seq, viewer.loadedTo);
  if (viewer.opening) eventList.limit = rows;
  else eventList.setLimit(rows, { soon: quiet && viewer.loadedTo > viewer.openedAt });
  eventList.mark(seq);
  // The dice log hides the rolls after the seq shown: walked only when that limit moves.
  const limit = seq === viewer.head ? Infinity : seq;
  if (limit !== viewer.diceLimit) {
    viewer.diceLimit = limit;
    for (const tr of document.querySelectorAll("#dice tbody tr")) tr.hidden = Number(tr.dataset.seq) > limit;
  }
  laterNote();
  $("share-link").textContent = "";
  if (viewer.kept) {
    history.replaceState(null, "", `${tableLink(viewer.gameId, viewer.kept)}${seq === viewer.head ? "" : `&seq=${seq}`}`);
  } else if (!quiet || location.hash.includes("seq=")) {
    history.replaceState(null, "", `#${new URL(shareLink(seq)).hash.slice(1)}`);
  }
  renderState();
}

// The state for the shown seq: the view captured at that seq, else the last one captured
// before it (with the events after it listed), else the latest, each labelled honestly.
function renderState() {
  const seq = viewer.seq;
  let best = null;
  for (const [at, view] of viewer.views) if (at <= seq && (!best || at > best.seq)) best = view;
  // A past seq the reader chose is asked for; the head's state is pushed (onState).
  if ((!best || best.seq !== seq) && seq >= 1 && !viewer.follow && viewer.client && viewer.gameId) fetchStateAt(seq);
  let label;
  if (best && best.seq === seq) {
    label = seq === viewer.head ? `Latest state, at seq ${seq}.` : `State at seq ${seq}.`;
  } else if (best) {
    label = `State at seq ${best.seq}, the last state this page captured at or before seq ${seq}; ` +
      `events ${best.seq + 1} to ${seq} in the list came after it.`;
  } else {
    const latest = [...viewer.views.values()].reduce((a, b) => (!a || b.seq > a.seq ? b : a), null);
    if (!latest) {
      $("state-label").textContent = "Loading the state…";
      return;
    }
    best = latest;
    label = `No state at or before seq ${seq} was captured (this page opened later). ` +
      `Showing the latest state, at seq ${latest.seq}, not the state at seq ${seq}.`;
  }
  $("state-label").textContent = `${label}${best.ended ? " The game has ended." : ""}`;
  $("state-label").dataset.stateSeq = best.seq;
  // The receipt of this state (docs/audit.md "Receipts"): the head it is at and the hash of
  // exactly this view, which the log can be checked against later.
  $("receipt").textContent = best.state_hash
    ? `Receipt: seq ${best.seq}, head hash ${best.head_hash}, state hash ${best.state_hash}`
    : "";
  if (viewer.shownView === best) return;
  viewer.shownView = best;
  // The state captured before this one: what the opponent's last move moved from.
  let before = null;
  for (const [at, view] of viewer.views) if (at < best.seq && (!before || at > before.seq)) before = view;
  const drawn = boardOf(best.map, before && before.map, before ? reportedSince(before.seq, best.seq) : new Set());
  $("state").replaceChildren(...(drawn ? [drawn] : []));
  $("state").hidden = !drawn;
  $("state-details").replaceChildren(stateDetails(best.state, namesOf()));
}

// The values the player's commands after `from` up to `to` gave (a report's piece and hex):
// what the map says the player reported, not the opponent's move (hexmap.js lastMove).
function reportedSince(from, to) {
  const said = new Set();
  const add = (v) => {
    if (Array.isArray(v)) v.forEach(add);
    else if (v && typeof v === "object") Object.values(v).forEach(add);
    else if (typeof v === "string") said.add(v);
  };
  for (let seq = from + 1; seq <= to; seq += 1) {
    const f = viewer.frames.get(seq);
    if (f && f.event_type === "CommandRecorded" && f.payload && f.payload.role === "player") add(f.payload.command);
  }
  return said;
}

// Ask the server for the exact state after event `seq` (protocol: view with at_seq); the
// labelled fallback above stays on screen until it arrives. One request at a time, for
// the seq shown when it goes (dragging the scrubber asks for where it rests, not for every
// seq it passed); a replay the budget cannot pay yet is asked again after `retry_after`.
let fetchingAt = null;
async function fetchStateAt() {
  if (fetchingAt !== null) return;
  while (viewer.gameId && !viewer.follow && !viewer.views.has(viewer.seq)) {
    const gameId = viewer.gameId;
    const seq = viewer.seq;
    fetchingAt = seq;
    try {
      const state = await viewer.client.view(gameId, seq);
      if (gameId !== viewer.gameId) break;
      viewer.views.set(state.seq, state);
      watching(`: ${viewer.head} events`);
      renderState();
    } catch (err) {
      if (err.code !== "over_budget") {
        status(`state at seq ${seq}: ${err.message}`);
        break;
      }
      const wait = Math.min(30, Number(err.details?.retry_after) || 1);
      await new Promise((wake) => setTimeout(wake, wait * 1000));
    } finally {
      fetchingAt = null;
    }
  }
}

$("tab-table").addEventListener("click", () => tab("table"));
$("earlier").addEventListener("click", () => loadEarlier());
$("tab-audit").addEventListener("click", () => tab("audit"));

// The pickers follow the game shown (a game opened from its link names its ruleset).
function chooseRuleset(name) {
  if (viewer.ruleset === name) return;
  viewer.ruleset = name;
  // Rows drawn before the ruleset was known name their types again, with its capitals
  // (only the type's text: a row's dispute box keeps what it holds).
  for (const kind of document.querySelectorAll("#events li[data-type] > .kind")) {
    const row = kind.closest("li").dataset;
    kind.textContent = kindOf({ event_type: row.type, payload: { topic: row.topic } }, capitalsOf());
  }
  if (viewer.decisions.length) viewer.decisionsDirty = true;
  if ($("ruleset").value !== name && rulesets.some((r) => r.name === name)) {
    $("ruleset").value = name;
    fillScenarios();
  }
}

// The new-game pickers, from the server's list (GET /rulesets.json): never hard-coded.
let rulesets = [];
let settings = null;
function fillScenarios() {
  const chosen = rulesets.find((r) => r.name === $("ruleset").value);
  // Its settings said in that ruleset's words (the game on the table may be another's).
  useLabels(chosen && chosen.labels);
  settings = chosen && chosen.setup_schema ? settingsFields(chosen.setup_schema) : null;
  useLabels(namesOf()?.labels);
  $("settings").replaceChildren(...(settings ? [settings.node] : []));
  $("settings-box").hidden = !settings || !settings.count;
  $("scenario").replaceChildren(...(chosen ? chosen.scenarios : []).map((s) =>
    Object.assign(document.createElement("option"), { value: s.name, textContent: `${s.name}: ${s.description}`.slice(0, 90), selected: s.name === chosen.default_scenario })));
}
async function loadRulesets() {
  const response = await fetch("rulesets.json");
  if (!response.ok) throw new Error(`rulesets.json: ${response.status}`);
  rulesets = await response.json();
  $("ruleset").replaceChildren(...rulesets.map((r) => Object.assign(document.createElement("option"), { value: r.name, textContent: r.title || r.name.replace(/_/g, " ") })));
  fillScenarios();
}
$("ruleset").addEventListener("change", fillScenarios);

// Create a game, bind this browser's seed (umpire.js), keep the credential in the
// fragment so a reload resumes, and open it as the player.
$("new-game").addEventListener("submit", async (event) => {
  event.preventDefault();
  const button = $("new-game").querySelector("button");
  button.disabled = true;
  try {
    const client = await connected();
    status(`creating a game of ${$("ruleset").selectedOptions[0].textContent}…`);
    const setup = settings ? settings.read() : {};
    const created = await client.create($("ruleset").value, setup, undefined, { scenario: $("scenario").value || undefined });
    history.replaceState(null, "", tableLink(created.game_id, created.player_credential));
    viewer.kept = created.player_credential;
    $("credential").value = created.player_credential;
    await open(created.player_credential);
  } catch (err) {
    status(`error: ${err.message}${err.code ? ` (${err.code})` : ""}`);
  } finally {
    button.disabled = false;
  }
});

$("open-game").addEventListener("submit", (event) => {
  event.preventDefault();
  const credential = $("credential").value.trim();
  if (credential) open(credential);
});
$("scrubber").addEventListener("input", () => show(Number($("scrubber").value)));
$("seq-input").addEventListener("change", () => show(Number($("seq-input").value)));
$("prev").addEventListener("click", () => show(viewer.seq - 1));
$("next").addEventListener("click", () => show(viewer.seq + 1));
$("latest").addEventListener("click", () => show(viewer.head));
// The receipts this browser kept of the game (IndexedDB, umpire.js), as the receipts file
// a verifier takes (docs/audit.md 8.1): a download, made when the link is pressed.
$("save-receipts").addEventListener("click", async (event) => {
  if ($("save-receipts").dataset.ready) {
    delete $("save-receipts").dataset.ready; // this press downloads what was just made
    return;
  }
  event.preventDefault();
  if (!viewer.client || !viewer.gameId) return;
  const text = await viewer.client.receipts.exportText(viewer.gameId);
  const link = $("save-receipts");
  if (link.href.startsWith("blob:")) URL.revokeObjectURL(link.href);
  link.href = URL.createObjectURL(new Blob([text], { type: "application/jsonl" }));
  link.download = `${viewer.gameId}.receipts.jsonl`;
  link.dataset.ready = "1";
  link.click();
});
$("copy-link").addEventListener("click", async () => {
  const link = shareLink(viewer.seq);
  $("share-link").textContent = link;
  try {
    await navigator.clipboard.writeText(link);
    status("link copied (it holds no credential: the reader opens it with their own)");
  } catch {
    status("copy the link shown next to the button");
  }
});
document.addEventListener("keydown", (event) => {
  if (!viewer.head || event.target.closest("input, textarea, select, summary, button")) return;
  if (event.key === "[" || event.key === "ArrowLeft") show(viewer.seq - 1);
  else if (event.key === "]" || event.key === "ArrowRight") show(viewer.seq + 1);
  else if (event.key === "End") show(viewer.head);
  else if (event.key === "Home") show(1);
  else return;
  event.preventDefault();
});

// The rulebook names for citations (shown raw if they cannot be read) and the rulesets'
// pickers and labels, read while a linked game's connection opens.
pageReady = Promise.all([
  loadCitations().catch(() => {}),
  loadRulesets().catch((err) => status(`the ruleset list could not be read: ${err.message}`)),
]);

const start = readHash();
if (start.seq !== null) viewer.wanted = start.seq;
// The link's game is opened with a game credential (which names it) or, as the referee,
// with the operator token: never typed into the operator's "Game id" box for them.
if (start.game) viewer.linked = start.game;
if (start.credential) {
  $("credential").value = start.credential;
  if (start.keep) viewer.kept = start.credential;
  open(start.credential);
  if (!start.keep) {
    history.replaceState(null, "", start.seq !== null && start.game ? `#game=${start.game}&seq=${start.seq}` : location.pathname);
  }
} else if (start.game) {
  status(`enter your credential for game ${start.game} to open it${start.seq !== null ? ` at seq ${start.seq}` : ""}`);
}

window.umpireViewer = viewer; // for debugging from the console
export { viewer };
