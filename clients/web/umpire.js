// umpire browser client: an ES module, no build step. Speaks docs/protocol.md.
// Usage:
//   import { UmpireClient } from "./umpire.js";
//   const client = new UmpireClient(`ws://${location.host}/ws`);
//   await client.connect();
//   await client.auth(credential);
//   client.subscribe(gameId, 0, (frame) => console.log(frame.seq, frame.event_type));

// 16 bytes of the browser's cryptographic randomness, as hex: a client seed.
function freshSeed() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export class UmpireClient {
  constructor(url, { reconnectDelay = 250 } = {}) {
    this.url = url;
    this.reconnectDelay = reconnectDelay;
    this.credentials = [];
    this.subscriptions = new Map(); // gameId -> { lastSeq, onEvent, onState, onEnded, view }
    this.pending = new Map(); // request id -> { message, resolve, reject }
    this.nextId = 1;
    this.closed = false;
    this.onStatus = () => {};
  }

  connect() {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(this.url);
      this.ws = ws;
      ws.onopen = () => {
        this.onStatus("connected");
        for (const credential of this.credentials) this.#raw({ type: "auth", credential });
        for (const [gameId, sub] of this.subscriptions) {
          this.#raw({ type: "subscribe", game_id: gameId, from_seq: sub.lastSeq });
        }
        for (const { message } of this.pending.values()) this.#raw(message);
        resolve();
      };
      ws.onerror = (err) => reject(err);
      ws.onmessage = (msg) => this.#deliver(JSON.parse(msg.data));
      ws.onclose = () => {
        this.onStatus("disconnected");
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

  #deliver(message) {
    // Unsolicited errors that end a subscription: the credential was revoked, or the
    // server's log lost events the subscriber may hold (log_rewound: subscribe again).
    const ended = message.type === "error" && message.id == null && message.details
      && ["credential_revoked", "log_rewound"].includes(message.code)
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
        sub.onEvent(message);
      }
      return;
    }
    if (message.type === "state" && !this.pending.has(message.id)) {
      const sub = this.subscriptions.get(message.game_id);
      if (sub && sub.onState) sub.onState(message);
      return;
    }
    const waiting = this.pending.get(message.id);
    if (!waiting) return;
    this.pending.delete(message.id);
    if (message.type === "error") waiting.reject(Object.assign(new Error(message.message), message));
    else waiting.resolve(message);
  }

  request(message) {
    const id = `r${this.nextId++}`;
    const full = { ...message, id };
    return new Promise((resolve, reject) => {
      this.pending.set(id, { message: full, resolve, reject });
      this.#raw(full);
    });
  }

  // Create a game, then bind this client's seed once the server's commitment has arrived
  // (docs/audit.md (4.1)): neither side can choose its seed knowing the other's. The seed
  // is fresh browser entropy unless one is given.
  // `scenario` names one of the ruleset's scenarios (its setup, with `setup` laid over it).
  async create(ruleset, setup = {}, clientSeed, { scenario } = {}) {
    // A create_id makes the create safe to re-send after a reconnect: it names one game.
    const message = { type: "create", ruleset, setup, create_id: crypto.randomUUID().replaceAll("-", "") };
    if (scenario) message.scenario = scenario;
    const created = await this.request(message);
    this.credentials.push(created.player_credential);
    if (!created.client_seed && created.client_entropy !== "waived") {
      const seed = clientSeed || freshSeed();
      await this.bindSeed(created.game_id, seed);
      return { ...created, client_seed: seed };
    }
    return created;
  }

  // Bind a client seed to the game's current seed epoch: after create, and after each
  // mid-game reveal (its SeedRevealed carries the next commitment) before the next roll.
  bindSeed(gameId, clientSeed) {
    return this.request({ type: "bind_seed", game_id: gameId, client_seed: clientSeed || freshSeed() });
  }

  async auth(credential) {
    const result = await this.request({ type: "auth", credential });
    this.credentials.push(credential);
    return result;
  }

  send(gameId, command, { dice, commandId, expectedSeq } = {}) {
    const message = {
      type: "command",
      game_id: gameId,
      command_id: commandId || `web-${crypto.randomUUID()}`,
      command,
    };
    if (dice) message.dice = dice;
    if (expectedSeq !== undefined) message.expected_seq = expectedSeq;
    return this.request(message);
  }

  // The state now, or (atSeq) after that event, as this connection's role sees it.
  view(gameId, atSeq) {
    const message = { type: "view", game_id: gameId };
    if (atSeq !== undefined) message.at_seq = atSeq;
    return this.request(message);
  }

  // onEnded(error) is called if the server ends the subscription (credential_revoked,
  // log_rewound).
  subscribe(gameId, fromSeq, onEvent, { onState, onEnded, view = false } = {}) {
    this.subscriptions.set(gameId, { lastSeq: fromSeq, onEvent, onState, onEnded, view });
    const message = { type: "subscribe", game_id: gameId, from_seq: fromSeq };
    if (view) message.view = true;
    return this.request(message);
  }

  unsubscribe(gameId) {
    this.subscriptions.delete(gameId);
    return this.request({ type: "unsubscribe", game_id: gameId });
  }
}
