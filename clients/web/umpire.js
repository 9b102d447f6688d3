// umpire browser client: an ES module, no build step. Speaks docs/protocol.md.
// Usage:
//   import { UmpireClient } from "./umpire.js";
//   const client = new UmpireClient(`ws://${location.host}/ws`);
//   await client.connect();
//   await client.auth(credential);
//   client.subscribe(gameId, 0, (frame) => console.log(frame.seq, frame.event_type));
//   client.onReceiptFault = (fault) => console.warn(fault.why); // a receipt that failed its check

// The signature check of receipts (docs/audit.md 8.4), shared with the verify page: a
// classic script (verify.html loads it too) that defines globalThis.umpireReceiptCheck.
import "./receipt_check.js";

const { can_check: canCheck, receipt_fault: receiptFault } = globalThis.umpireReceiptCheck;

// Refusals of a re-auth or resubscribe that asking again can change (docs/protocol.md,
// "error frames"): the store away, the gateway's admission, a draining gateway. Every
// other code ends what it refused. The same set as clients/client.py's RETRIED.
const RETRIED = ["over_budget", "store_unavailable", "shutting_down"];
const RETRY_AFTER_CAP_MS = 30000; // the longest `retry_after` honoured before asking again
const BACKOFF_FIRST_MS = 100;
const BACKOFF_CAP_MS = 2000;
const KEY_READ_TIMEOUT_MS = 10000; // reading a game's receipt key (its GameCreated), as the Python client's

// 16 bytes of the browser's cryptographic randomness, as hex: a client seed.
function freshSeed() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// The receipts a client keeps of the games it plays (docs/audit.md 8.1): the seed
// commitment of each epoch and the receipt of every created, accepted and state. Kept in
// the browser's IndexedDB (database "umpire-receipts", store "anchors", one record per
// anchor with its game_id), so they outlive the page; exportText(gameId) is the game's
// receipts file (umpire-receipts/3: each receipt with the server's signature and the tree
// it covers, docs/audit.md 8.4) that every verifier takes (--receipts FILE).
export const RECEIPTS_FORMAT = "umpire-receipts/3";

// Line 1 carries the game's receipt key when the client had it (`created`, or the game's
// GameCreated), as the Python client's file does: `umpire proof` reads it from there.
function receiptsText(gameId, anchors, publicKey = "") {
  const header = { format: RECEIPTS_FORMAT, game_id: gameId };
  if (publicKey) header.public_key = publicKey;
  const lines = [JSON.stringify(header)];
  for (const anchor of anchors) lines.push(JSON.stringify(anchor));
  return lines.join("\n") + "\n";
}

// The key a client derives its command nonces from (nonceFor), as the Python client's
// events/nonce_key.py: an HMAC-SHA256 key of 32 random bytes, made by WebCrypto and not
// extractable (the page can sign with it, never read it).
function newNonceKey() {
  return crypto.subtle.generateKey({ name: "HMAC", hash: "SHA-256", length: 256 }, false, ["sign"]);
}

// Anchors in memory: where IndexedDB is missing (or for a page that keeps nothing). Its
// nonce key is kept, and lost, with them.
export class MemoryReceipts {
  constructor() { this.games = new Map(); this.keys = new Map(); this.key = null; }
  nonceKey() { return (this.key ??= newNonceKey()); }
  async keep(gameId, anchor, publicKey = "") {
    if (!this.games.has(gameId)) this.games.set(gameId, []);
    this.games.get(gameId).push(anchor);
    if (publicKey && !this.keys.has(gameId)) this.keys.set(gameId, publicKey);
  }
  async anchors(gameId) { return [...(this.games.get(gameId) || [])]; }
  async exportText(gameId) {
    return receiptsText(gameId, await this.anchors(gameId), this.keys.get(gameId) || "");
  }
}

// The nonce key is kept beside the anchors, in the store "secrets" under "nonce": made
// once, the same for every later page of this browser profile, so a command id sent again
// after a reload carries the same nonce.
export class IndexedDBReceipts {
  constructor(name = "umpire-receipts") {
    this.name = name;
    this.db = null;
    this.key = null;
    this.writes = Promise.resolve(); // in the order received
  }
  #open() {
    if (!this.db) {
      this.db = new Promise((resolve, reject) => {
        // Version 2 adds "secrets" (the nonce key) to a database made with "anchors" only.
        const request = indexedDB.open(this.name, 2);
        request.onupgradeneeded = () => {
          const db = request.result;
          if (!db.objectStoreNames.contains("anchors")) {
            const store = db.createObjectStore("anchors", { autoIncrement: true });
            store.createIndex("game_id", "game_id");
          }
          if (!db.objectStoreNames.contains("secrets")) db.createObjectStore("secrets");
        };
        request.onsuccess = () => {
          // A later page that upgrades the database is not kept waiting on this one.
          request.result.onversionchange = () => { request.result.close(); this.db = null; };
          resolve(request.result);
        };
        request.onerror = () => reject(request.error);
      });
    }
    return this.db;
  }
  // `publicKey`: the game's receipt key when the client has it, kept on the record for
  // the file's header.
  keep(gameId, anchor, publicKey = "") {
    this.writes = this.writes.then(async () => {
      const db = await this.#open();
      await new Promise((resolve, reject) => {
        const tx = db.transaction("anchors", "readwrite");
        const record = { game_id: gameId, anchor };
        if (publicKey) record.public_key = publicKey;
        tx.objectStore("anchors").add(record);
        tx.oncomplete = resolve;
        tx.onerror = () => reject(tx.error);
      });
    }).catch(() => {}); // a full or refused database loses receipts, never a command
    return this.writes;
  }
  async #records(gameId) {
    await this.writes;
    const db = await this.#open();
    return new Promise((resolve, reject) => {
      const request = db.transaction("anchors").objectStore("anchors").index("game_id").getAll(gameId);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  }
  async anchors(gameId) { return (await this.#records(gameId)).map((record) => record.anchor); }
  async exportText(gameId) {
    const records = await this.#records(gameId);
    const publicKey = records.find((record) => record.public_key)?.public_key || "";
    return receiptsText(gameId, records.map((record) => record.anchor), publicKey);
  }
  nonceKey() {
    this.key ??= (async () => {
      const db = await this.#open();
      const held = (mode, made) => new Promise((resolve, reject) => {
        const tx = db.transaction("secrets", mode);
        const store = tx.objectStore("secrets");
        const request = store.get("nonce");
        let key;
        request.onsuccess = () => {
          key = request.result;
          // Kept only if none is there yet, in the same transaction: two pages making a
          // key at once both end with the one that was stored first.
          if (key === undefined && made) { key = made; store.add(made, "nonce"); }
        };
        tx.oncomplete = () => resolve(key);
        tx.onerror = () => reject(tx.error);
        tx.onabort = () => reject(tx.error);
      });
      return (await held("readonly")) ?? (await held("readwrite", await newNonceKey()));
    })();
    return this.key;
  }
}

function now() { return new Date().toISOString().replace(/\.\d+Z$/, "Z"); }

// `signed`: the reply whose `key_id` and `signature` sign the receipt over seqs `firstSeq`
// to the head (docs/audit.md 8.4), with the tree that signature covers (`leaf_index`,
// `tree_size`, `proof`) and its leaf's `blind`; a reply without a signature keeps an
// unsigned receipt.
function receiptAnchor(reply, commandId, role, seq, headHash, stateHash, signed = null, firstSeq = 0) {
  const anchor = {
    kind: "receipt", reply, command_id: commandId, role, head_seq: seq, head_hash: headHash,
    state_hash: stateHash || "", received_at: now(),
  };
  if (signed && signed.signature) {
    Object.assign(anchor, { first_seq: firstSeq, key_id: signed.key_id, signature: signed.signature });
    if (signed.tree_size) Object.assign(anchor, { leaf_index: signed.leaf_index, tree_size: signed.tree_size, proof: signed.proof || [] });
    if (signed.blind) anchor.blind = signed.blind;
  }
  return anchor;
}

export class UmpireClient {
  constructor(url, { reconnectDelay = 250, receipts } = {}) {
    this.url = url;
    // The anchors of the games played (docs/audit.md 8.1): IndexedDB where the browser has it.
    this.receipts = receipts || (typeof indexedDB !== "undefined" ? new IndexedDBReceipts() : new MemoryReceipts());
    this.reconnectDelay = reconnectDelay;
    this.credentials = [];
    this.subscriptions = new Map(); // gameId -> { lastSeq, onEvent, onState, onEnded, view }
    this.pending = new Map(); // request id -> { message, resolve, reject, sentOn }
    // The reconnect's own requests (re-auths, resubscribes): answered to it, never re-sent.
    this.restoring = new Map(); // request id -> resolve(answer, or null if the connection dropped)
    this.ready = false; // the connection is restored: requests go out as they are made
    this.retries = 0; // re-auths and resubscribes asked again after a transient refusal
    this.nextId = 1;
    this.closed = false;
    this.onStatus = () => {};
    // Each game's receipt key (docs/audit.md 8.4), against which every `created`,
    // `accepted` and `state` receipt is checked as it arrives: from `created`, or from the game's
    // GameCreated (seen in a subscription, or read on a connection of its own).
    this.receiptKeys = new Map(); // game id -> public key ("" for a game without one)
    this.keyReads = new Map(); // game id -> the read of its key under way
    this.credentialOf = new Map(); // game id -> the credential this client holds for it
    // Called with each receipt that fails its check: { game_id, reply, command_id,
    // first_seq, seq, why }. The reply's effect stands; the receipt is kept, marked.
    this.onReceiptFault = () => {};
  }

  // The nonce this client sends with a command: the first 32 hex digits of
  // HMAC-SHA256(the nonce key kept with the receipts, "<game id>:<command id>"), as the
  // Python client's. The same for every sending of one command id, from this page or any
  // later one of this browser profile; nobody without the key knows it before it is sent
  // (docs/security.md).
  async nonceFor(gameId, commandId) {
    const key = await (this.receipts.nonceKey ? this.receipts : (this.ownKeys ??= new MemoryReceipts())).nonceKey();
    const signed = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${gameId}:${commandId}`));
    return Array.from(new Uint8Array(signed).slice(0, 16), (b) => b.toString(16).padStart(2, "0")).join("");
  }

  connect() {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(this.url);
      this.ws = ws;
      ws.onopen = () => {
        this.onStatus("connected");
        this.#restore(ws);
        resolve();
      };
      ws.onerror = (err) => reject(err);
      ws.onmessage = (msg) => this.#deliver(JSON.parse(msg.data));
      ws.onclose = () => {
        this.onStatus("disconnected");
        if (this.ws === ws) this.ready = false;
        // The restore's answers will not come on this connection: it stops; the next starts again.
        for (const answered of this.restoring.values()) answered(null);
        this.restoring.clear();
        if (!this.closed) setTimeout(() => this.connect().catch(() => {}), this.reconnectDelay);
      };
    });
  }

  close() {
    this.closed = true;
    if (this.ws) this.ws.close();
  }

  #raw(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  // Restore a new connection, reading each answer in order (a subscribe needs its auth):
  // every kept credential's auth, then every open subscription's subscribe from its last
  // seq, then the requests still unanswered; only then do new requests go out. Each of
  // these carries an id, so a refusal reaches it (the refusal of an id-less message has
  // no id and would be lost, and the subscription would never deliver again). A refusal
  // that retrying cannot change drops the credential and ends the subscription (onEnded);
  // a transient one (RETRIED) is asked again after a pause. A drop ends this early.
  async #restore(ws) {
    const refused = new Map(); // game id -> the refusal of its credential's re-auth
    for (const credential of [...this.credentials]) {
      const answer = await this.#askUntilSettled(ws, () => ({ type: "auth", credential }));
      if (answer === null) return; // the connection dropped
      if (answer.type === "error") {
        this.credentials = this.credentials.filter((kept) => kept !== credential);
        const gameId = typeof answer.details?.game_id === "string"
          ? answer.details.game_id
          : credential.split(".")[0]; // credentials read <game id>.<token>
        refused.set(gameId, answer);
      }
    }
    for (const [gameId, sub] of [...this.subscriptions]) {
      if (this.pending.has(sub.requestId)) continue; // its first subscribe: re-sent as it was, below
      // With views, the state of the head comes too: it is held until the missed events are in.
      const answer = await this.#askUntilSettled(ws, () => (sub.views
        ? { type: "subscribe", game_id: gameId, from_seq: sub.lastSeq, view: true, views: true }
        : { type: "subscribe", game_id: gameId, from_seq: sub.lastSeq }
      ));
      if (answer === null) return;
      if (answer.type === "error" && this.subscriptions.get(gameId) === sub) {
        this.subscriptions.delete(gameId);
        // A revoked credential: the subscribe's unauthorized names its cause, the refused auth.
        const cause = answer.code === "unauthorized" && refused.get(gameId);
        if (sub.onEnded) sub.onEnded(cause || answer);
      }
    }
    if (this.ws !== ws || ws.readyState !== WebSocket.OPEN) return;
    for (const waiting of this.pending.values()) {
      if (waiting.sentOn !== ws) {
        waiting.sentOn = ws;
        ws.send(JSON.stringify(waiting.message));
      }
    }
    this.ready = true;
  }

  // One of the restore's requests, sent on `ws`: its answer (an error included), or null
  // if the connection dropped first.
  #ask(ws, message) {
    if (this.ws !== ws || ws.readyState !== WebSocket.OPEN) return Promise.resolve(null);
    const id = `r${this.nextId++}`;
    return new Promise((resolve) => {
      this.restoring.set(id, resolve);
      ws.send(JSON.stringify({ ...message, id }));
    });
  }

  // Ask until the answer is not a transient refusal, pausing in between: 100 ms doubling
  // to 2 s, each pause drawn between half and all of its step (events/backoff.py), and at
  // least the server's `retry_after` (up to 30 s). Null if the connection dropped.
  async #askUntilSettled(ws, message) {
    for (let step = BACKOFF_FIRST_MS; ; step = Math.min(BACKOFF_CAP_MS, step * 2)) {
      const answer = await this.#ask(ws, message());
      if (answer === null || !(answer.type === "error" && RETRIED.includes(answer.code))) return answer;
      let pause = step / 2 + Math.random() * (step / 2);
      const retryAfter = answer.details?.retry_after;
      if (typeof retryAfter === "number") pause = Math.max(pause, Math.min(retryAfter * 1000, RETRY_AFTER_CAP_MS));
      this.retries += 1;
      await new Promise((wake) => setTimeout(wake, pause));
    }
  }

  #deliver(message) {
    const restoring = message.id != null && this.restoring.get(message.id);
    if (restoring) {
      this.restoring.delete(message.id);
      restoring(message);
      return;
    }
    // Unsolicited errors that end a subscription: the credential was revoked, or the
    // server's log lost events the subscriber may hold (log_rewound: subscribe again), or
    // it skips seqs so nothing after them can come in order (log_gap).
    const ended = message.type === "error" && message.id == null && message.details
      && ["credential_revoked", "log_rewound", "log_gap"].includes(message.code)
      && this.subscriptions.get(message.details.game_id);
    if (ended) {
      this.subscriptions.delete(message.details.game_id);
      if (ended.onEnded) ended.onEnded(message);
      return;
    }
    if (message.type === "event") {
      const sub = this.subscriptions.get(message.game_id);
      if (sub && message.seq === sub.lastSeq + 1) {
        sub.lastSeq = message.seq;
        this.#keepEvent(message);
        sub.onEvent(message);
        this.#releaseState(sub);
      }
      return;
    }
    if (message.type === "state" && !this.pending.has(message.id)) {
      // The subscribe's view, or a state the server pushed after a batch (`views`): given
      // to onState once every event up to its seq has been (docs/protocol.md, "Pushed states").
      const sub = this.subscriptions.get(message.game_id);
      if (sub && sub.onState && message.seq > sub.stateSeq && (!sub.held || message.seq > sub.held.seq)) {
        sub.held = message;
        this.#releaseState(sub);
      }
      return;
    }
    const waiting = this.pending.get(message.id);
    if (!waiting) return;
    this.pending.delete(message.id);
    if (message.type === "error") waiting.reject(Object.assign(new Error(message.message), message));
    else waiting.resolve(message);
  }

  #releaseState(sub) {
    const held = sub.held;
    if (!held || held.seq > sub.lastSeq) return;
    sub.held = null;
    if (held.seq <= sub.stateSeq) return;
    sub.stateSeq = held.seq;
    void this.#keepState(held); // checked off the way: onState need not wait for the key
    sub.onState(held);
  }

  // A mid-game reveal announces the next epoch's seed commitment: keep it. GameCreated
  // names the game's receipt key: learn it.
  #keepEvent(frame) {
    const p = frame.payload;
    if (frame.event_type === "GameCreated" && p && typeof p.receipt_key === "string" && !this.receiptKeys.has(frame.game_id)) {
      this.receiptKeys.set(frame.game_id, p.receipt_key);
    }
    if (frame.event_type === "SeedRevealed" && p && p.next_commitment && Number.isInteger(p.epoch)) {
      this.receipts.keep(frame.game_id, { kind: "commitment", epoch: p.epoch + 1, commitment: p.next_commitment, received_at: now() });
    }
  }

  // A `state` frame's receipt, signed as an `accepted` one (docs/audit.md 8.4): checked
  // and kept the same way, over the one seq it states (first_seq = seq), for its role.
  async #keepState(state) {
    if (state.head_hash) await this.#keepSigned(state, "state", "", state.seq, state.role, state.seq);
  }

  // An `accepted` reply's receipt, checked and kept (head_seq 0: the reply went without
  // one, the store went away); the reply, with `client_check` if its receipt failed.
  async #keepAccepted(accepted) {
    if (!accepted.head_seq) return accepted;
    const first = accepted.seqs && accepted.seqs.length ? accepted.seqs[0] : accepted.head_seq;
    const why = await this.#keepSigned(accepted, "accepted", accepted.command_id, first);
    return why ? { ...accepted, client_check: why } : accepted;
  }

  // Check a signed reply's receipt against the game's key as it arrives (receipt_check.js,
  // by clients/receipts.py's rules), and keep it either way: a failed one marked
  // `client_check`, as evidence of what the server sent, and told to onReceiptFault. What
  // failed, in words, or "".
  async #keepSigned(reply, kind, commandId, first, role = "player", seq = reply.head_seq) {
    const gameId = reply.game_id;
    const anchor = receiptAnchor(kind, commandId, role, seq, reply.head_hash, reply.state_hash, reply, first);
    // A page that cannot check (no WebCrypto Ed25519 here) keeps it unchecked, as one
    // that cannot read the game's key: the audit checks it later.
    const why = (await canCheck()) ? await receiptFault(gameId, anchor, await this.#gameKey(gameId)) : "";
    if (why) anchor.client_check = why;
    this.receipts.keep(gameId, anchor, this.receiptKeys.get(gameId) || "");
    if (why) {
      this.onReceiptFault({ game_id: gameId, reply: kind, command_id: commandId, first_seq: first, seq, why });
    }
    return why;
  }

  // The game's receipt key: as `created` or GameCreated gave it, or read from GameCreated
  // once over a connection of its own; "" when none can be had now (this receipt goes
  // unchecked; the next one asks again).
  async #gameKey(gameId) {
    if (this.receiptKeys.has(gameId)) return this.receiptKeys.get(gameId);
    if (!this.keyReads.has(gameId)) {
      this.keyReads.set(gameId, this.#readGameKey(gameId).then((key) => {
        this.keyReads.delete(gameId);
        if (key !== null && !this.receiptKeys.has(gameId)) this.receiptKeys.set(gameId, key);
        return key;
      }));
    }
    return (await this.keyReads.get(gameId)) ?? "";
  }

  // The receipt key the game's GameCreated (seq 1) names, read with a subscription from
  // seq 0 on a short connection of its own (this one's subscriptions go on undisturbed);
  // null if this client holds no credential for the game, or it could not be read.
  #readGameKey(gameId) {
    const credential = this.credentialOf.get(gameId);
    if (!credential || typeof WebSocket === "undefined") return Promise.resolve(null);
    return new Promise((resolve) => {
      const ws = new WebSocket(this.url);
      const done = (key) => {
        clearTimeout(timer);
        ws.onmessage = ws.onclose = ws.onerror = null;
        ws.close();
        resolve(key);
      };
      const timer = setTimeout(() => done(null), KEY_READ_TIMEOUT_MS);
      ws.onopen = () => {
        ws.send(JSON.stringify({ type: "auth", credential, id: "k1" }));
        ws.send(JSON.stringify({ type: "subscribe", game_id: gameId, from_seq: 0, id: "k2" }));
      };
      ws.onmessage = (msg) => {
        const message = JSON.parse(msg.data);
        if (message.type === "error") done(null);
        else if (message.type === "event" && message.game_id === gameId) {
          const key = message.payload && message.payload.receipt_key;
          done(message.event_type === "GameCreated" && typeof key === "string" ? key : null);
        }
      };
      ws.onclose = ws.onerror = () => done(null);
    });
  }

  request(message) {
    return this.#request(message).answer;
  }

  // A request and the id it was given: { id, answer }.
  #request(message) {
    const id = `r${this.nextId++}`;
    const full = { ...message, id };
    const answer = new Promise((resolve, reject) => {
      const waiting = { message: full, resolve, reject, sentOn: null };
      this.pending.set(id, waiting);
      // While a reconnect restores auths and subscriptions, the request waits: #restore sends it.
      if (this.ready) {
        waiting.sentOn = this.ws;
        this.#raw(full);
      }
    });
    return { id, answer };
  }

  // Create a game, then bind this client's seed once the server's commitment has arrived
  // (docs/audit.md (4.1)): neither side can choose its seed knowing the other's. The seed
  // is fresh browser entropy unless one is given.
  // `scenario` names one of the ruleset's scenarios (its setup, with `setup` laid over it).
  async create(ruleset, setup = {}, clientSeed, { scenario } = {}) {
    // A create_id makes the create safe to re-send after a reconnect: it names one game.
    const message = { type: "create", ruleset, setup, create_id: crypto.randomUUID().replaceAll("-", "") };
    if (scenario) message.scenario = scenario;
    let created = await this.request(message);
    this.credentials.push(created.player_credential);
    this.credentialOf.set(created.game_id, created.player_credential);
    if (!this.receiptKeys.has(created.game_id)) this.receiptKeys.set(created.game_id, created.receipt_key || "");
    // The create_id is a secret (it gets a player credential): never kept with the receipts.
    this.receipts.keep(created.game_id, { kind: "commitment", epoch: 0, commitment: created.seed_commitment, received_at: now() });
    if (created.head_seq) {
      const why = await this.#keepSigned(created, "created", "", 1);
      if (why) created = { ...created, client_check: why };
    }
    if (!created.client_seed && created.client_entropy !== "waived") {
      const seed = clientSeed || freshSeed();
      await this.bindSeed(created.game_id, seed);
      return { ...created, client_seed: seed };
    }
    return created;
  }

  // Bind a client seed to the game's current seed epoch: after create, and after each
  // mid-game reveal (its SeedRevealed carries the next commitment) before the next roll.
  async bindSeed(gameId, clientSeed) {
    return this.#keepAccepted(await this.request({ type: "bind_seed", game_id: gameId, client_seed: clientSeed || freshSeed() }));
  }

  async auth(credential) {
    const result = await this.request({ type: "auth", credential });
    this.credentials.push(credential);
    if (result.game_id && !this.credentialOf.has(result.game_id)) this.credentialOf.set(result.game_id, credential);
    return result;
  }

  // Without dice, the command carries its nonce (nonceFor): the entropy its server rolls
  // also derive from, so nobody holding the store knows them before it is sent.
  async send(gameId, command, { dice, commandId, expectedSeq } = {}) {
    const message = {
      type: "command",
      game_id: gameId,
      command_id: commandId || `web-${crypto.randomUUID()}`,
      command,
    };
    if (dice) message.dice = dice;
    else message.nonce = await this.nonceFor(gameId, message.command_id);
    if (expectedSeq !== undefined) message.expected_seq = expectedSeq;
    return this.request(message).then((accepted) => this.#keepAccepted(accepted));
  }

  // The state now, or (atSeq) after that event, as this connection's role sees it.
  async view(gameId, atSeq) {
    const message = { type: "view", game_id: gameId };
    if (atSeq !== undefined) message.at_seq = atSeq;
    const state = await this.request(message);
    await this.#keepState(state);
    return state;
  }

  // onEnded(error) is called if the server ends the subscription (credential_revoked,
  // log_rewound), or refuses it for good when a reconnect resubscribes (unauthorized for
  // a credential revoked meanwhile, game_not_found, log_rewound for a log that lost the
  // events this client holds).
  // With `views`, onState(state) is called with this role's new state (its actions, map)
  // after each batch's events, pushed by the server: no `view` to ask after a command.
  // With `view`, the state now comes first (given to onState once the events reach it).
  subscribe(gameId, fromSeq, onEvent, { onState, onEnded, view = false, views = false } = {}) {
    const sub = { lastSeq: fromSeq, onEvent, onState, onEnded, view, views, requestId: null, stateSeq: 0, held: null };
    this.subscriptions.set(gameId, sub);
    const message = { type: "subscribe", game_id: gameId, from_seq: fromSeq };
    if (view) message.view = true;
    if (views) message.views = true;
    const { id, answer } = this.#request(message);
    sub.requestId = id; // while unanswered, a reconnect re-sends it as it is
    return answer;
  }

  unsubscribe(gameId) {
    this.subscriptions.delete(gameId);
    return this.request({ type: "unsubscribe", game_id: gameId });
  }
}
