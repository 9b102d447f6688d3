// The live event list: open a game with a credential and watch its events arrive.
import { UmpireClient } from "./umpire.js";

const $ = (id) => document.getElementById(id);
const wsUrl = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
const client = new UmpireClient(wsUrl);
client.onStatus = (status) => { $("status").textContent = status; };

function describe(frame) {
  const p = frame.payload;
  if (p === null) return "(hidden from your role)";
  if (frame.event_type === "DiceRolled") {
    const faces = p.faces.length ? `[${p.faces.join(" ")}] = ${p.total}` : "[hidden]";
    return `roll #${p.roll} ${p.kind} ${faces} (${p.by}) for ${p.purpose}`;
  }
  if (frame.event_type === "CommandRecorded") return `${p.role} command ${p.command_type}`;
  if (p.explanation) return p.explanation;
  const { type, rule, candidates, ...rest } = p;
  return JSON.stringify(rest);
}

function addEvent(frame) {
  const li = document.createElement("li");
  li.dataset.seq = frame.seq;
  const seq = document.createElement("span");
  seq.className = "seq";
  seq.textContent = `#${frame.seq}`;
  const kind = document.createElement("span");
  kind.className = "kind";
  kind.textContent = `${frame.event_type} `;
  const what = document.createElement("span");
  what.textContent = describe(frame);
  li.append(seq, kind, what);
  if (frame.payload && frame.payload.rule) {
    const rule = document.createElement("span");
    rule.className = "rule";
    rule.textContent = frame.payload.rule;
    li.append(rule);
  }
  $("events").append(li);
}

$("open-game").addEventListener("submit", async (event) => {
  event.preventDefault();
  const credential = $("credential").value.trim();
  try {
    if (!client.ws) await client.connect();
    const auth = await client.auth(credential);
    $("game-label").textContent = `— ${auth.game_id} (${auth.role})`;
    $("events").replaceChildren();
    await client.subscribe(auth.game_id, 0, addEvent);
  } catch (err) {
    $("status").textContent = `error: ${err.message}`;
  }
});

const fromHash = new URLSearchParams(location.hash.slice(1)).get("credential");
if (fromHash) {
  $("credential").value = fromHash;
  $("open-game").requestSubmit();
}
