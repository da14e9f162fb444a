// The table's WebSocket: connects, reconnects with backoff (resyncing from the last version seen),
// sends commands (each with an `id` that the server's answer echoes), and keeps a move refused
// with 503 (no database) to resend until it lands; the same version lands once. The messages are
// listed at /docs.
// A bad network is noticed at once: the browser's `offline` shows "Reconnecting…", its `online`
// reconnects without waiting for the backoff, and a ping every few seconds finds a socket that
// died without closing (a tunnel, a changed network).
const PING_EVERY = 3000; // ms between pings while the page is shown
const DEAD_AFTER = 6000; // ms without a word from the server: the socket is dead
export class Connection {
  // `on` has table(table, {seat, canClaim, events}), reaction(message), error(message,
  // aboutDatabase), open(), lost(databaseDown) and refused() (closed for good).
  constructor(tableId, on) {
    this.tableId = tableId;
    this.on = on;
    this.socket = null;
    this.connected = false;
    this.attempts = 0;
    this.stopped = false;
    this.nextId = 1;
    this.outgoing = null; // the move on its way {move, version, id, tries, timer}
    this.databaseDown = false;
    this.last = null; // the table as the server last sent it (moves follow it)
    this.heardAt = 0; // when the server last sent anything
    setInterval(() => this.checkAlive(), PING_EVERY);
    window.addEventListener("offline", () => this.abandon());
    window.addEventListener("online", () => this.abandon(true));
    window.addEventListener("pagehide", () => {
      this.stopped = true;
      this.socket?.close();
    });
    // Back to a page kept in the browser's back-forward cache: its socket was closed on the way out.
    window.addEventListener("pageshow", (event) => {
      if (!event.persisted) return;
      this.stopped = false;
      if (!this.socket) this.connect();
    });
  }

  connect() {
    // Offline, a try can only fail: the browser's `online` event brings the next one.
    if (navigator.onLine === false) return;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${scheme}//${location.host}/api/tables/${encodeURIComponent(this.tableId)}/ws`);
    this.socket = ws;
    ws.addEventListener("open", () => {
      if (this.socket !== ws) return;
      this.connected = true;
      this.heardAt = performance.now();
      this.on.open();
    });
    ws.addEventListener("message", (event) => {
      if (this.socket !== ws) return;
      this.heardAt = performance.now();
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message.type === "table" && message.table) {
        this.attempts = 0; // served again (an open socket alone may be closed at once)
        this.last = message.table;
        this.on.table(message.table, {
          seat: message.seat, canClaim: Boolean(message.can_claim_win), events: message.events ?? [],
        });
      } else if (message.type === "moved") this.followMove(message);
      else if (message.type === "reaction") this.on.reaction(message);
      else if (message.type === "error") this.handleError(message);
    });
    ws.addEventListener("close", (event) => {
      if (this.socket !== ws) return;
      this.socket = null;
      this.connected = false;
      // A move in flight may have landed or not: the table sent on reconnecting says, and it is
      // sent again if it is still wanted (its version makes it land once at most).
      if (this.outgoing) this.outgoing.unsure = true;
      // 4xxx: the server said this table is gone or refused us for good; don't hammer it.
      if (this.stopped || (event.code >= 4000 && event.code < 5000)) {
        if (!this.stopped) this.on.refused();
        return;
      }
      // 1013 "try again later" after a 503 frame: the database is down.
      if (!(event.code === 1013 && this.databaseDown)) this.databaseDown = false;
      this.on.lost(this.databaseDown);
      this.retryLater();
    });
  }

  retryLater() {
    clearTimeout(this.retryTimer);
    const delay = Math.min(8000, 500 * 2 ** this.attempts) * (0.75 + Math.random() * 0.5);
    this.attempts += 1;
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  // Leaves the current socket for dead (its events are ignored from now on) and, when `now`,
  // connects again at once (the network is back); else after the backoff.
  abandon(now = false) {
    if (this.stopped) return;
    const old = this.socket;
    if (old) {
      this.socket = null;
      this.connected = false;
      if (this.outgoing) this.outgoing.unsure = true;
      try { old.close(); } catch { /* already closing */ }
      this.on.lost(false);
    } else if (!now) return;
    if (now) {
      clearTimeout(this.retryTimer);
      this.attempts = 0;
      this.connect();
    } else this.retryLater();
  }

  checkAlive() {
    if (!this.connected || !this.socket || document.hidden) return;
    if (performance.now() - this.heardAt > DEAD_AFTER) this.abandon(true);
    else this.socket.send(JSON.stringify({ type: "ping" }));
  }

  // After a move the server sends only what changed, for the version it follows. A gap (frames
  // missed, e.g. while reconnecting) asks for the whole table instead.
  followMove(frame) {
    const table = this.last;
    if (!table || frame.previous !== table.version) {
      if (!table || frame.version > table.version) this.sync(table?.version ?? 0);
      return;
    }
    const moves = [...table.moves, frame.move];
    const next = { ...table, ...frame.changes, version: frame.version, moves, record: moves.join(" ") };
    this.last = next;
    // No move leaves a claim standing; the viewer's seat stays as it was.
    this.on.table(next, { seat: null, canClaim: false, events: frame.events ?? [] });
  }

  // Sends a command with a fresh `id`: the id (an error answering it echoes it), or 0 if the
  // socket is not open.
  send(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      const id = this.nextId++;
      this.socket.send(JSON.stringify({ ...message, id }));
      return id;
    }
    return 0;
  }

  sync(version) {
    this.socket?.send(JSON.stringify({ type: "sync", version }));
  }

  sendMove(move, version) {
    const id = this.send({ type: "move", move, version });
    if (!id) return false;
    this.outgoing = { move, version, id, tries: 0, timer: null };
    return true;
  }

  dropOutgoing() {
    clearTimeout(this.outgoing?.timer);
    this.outgoing = null;
  }

  resendLater(seconds) {
    clearTimeout(this.outgoing.timer);
    const wait = seconds > 0 ? seconds : Math.min(10, 2 ** this.outgoing.tries);
    this.outgoing.tries += 1;
    this.outgoing.timer = setTimeout(() => this.resend(), wait * 1000 * (0.75 + Math.random() * 0.5));
  }

  resend() {
    const { move, version } = this.outgoing ?? {};
    if (!move) return;
    const id = this.connected ? this.send({ type: "move", move, version }) : 0;
    if (id) this.outgoing.id = id;
    else this.resendLater(0);
  }

  // An error answers the command whose `id` it carries; one without an id is about the socket.
  handleError(message) {
    const { status, reason } = message;
    const answersNothing = message.id === undefined;
    const forMove = Boolean(this.outgoing) && message.id === this.outgoing.id;
    if (forMove && (reason === "database-unavailable" || (reason === "rate-limited" && this.outgoing.tries))) {
      this.resendLater(Number(message.retry_after) || 0);
    } else if (forMove) this.dropOutgoing();
    // A 503 answering a move or nothing (on connecting: the socket closes with 1013 and reconnects).
    if (status === 503 && (forMove || answersNothing)) this.databaseDown = true;
    this.on.error(message, forMove || answersNothing);
  }
}
