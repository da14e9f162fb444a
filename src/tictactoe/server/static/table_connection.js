// The table's WebSocket: connects, reconnects with backoff (resyncing from the last version seen),
// sends commands, and keeps a move refused with 503 (no database) to resend until it lands; the
// same version lands once.
export class Connection {
  // `on` has table(table), reaction(message), error(message, answered: the type it answers),
  // open(), lost(databaseDown) and refused() (closed for good).
  constructor(tableId, on) {
    this.tableId = tableId;
    this.on = on;
    this.socket = null;
    this.connected = false;
    this.attempts = 0;
    this.stopped = false;
    this.lastSent = null; // what an error frame answers
    this.outgoing = null; // the move on its way {move, version, tries, timer}
    this.databaseDown = false;
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
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${scheme}//${location.host}/api/tables/${encodeURIComponent(this.tableId)}/ws`);
    this.socket = ws;
    ws.addEventListener("open", () => {
      this.connected = true;
      this.on.open();
    });
    ws.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message.type === "table" && message.table) {
        this.attempts = 0; // served again (an open socket alone may be closed at once)
        this.on.table(message.table);
      } else if (message.type === "reaction") this.on.reaction(message);
      else if (message.type === "error") this.handleError(message);
    });
    ws.addEventListener("close", (event) => {
      if (this.socket !== ws) return;
      this.socket = null;
      this.connected = false;
      this.lastSent = null;
      // A move refused with 503 is still wanted; one merely in flight may have landed.
      if (!this.outgoing?.tries) this.dropOutgoing();
      // 4xxx: the server said this table is gone or refused us for good; don't hammer it.
      if (this.stopped || (event.code >= 4000 && event.code < 5000)) {
        if (!this.stopped) this.on.refused();
        return;
      }
      // 1013 "try again later" after a 503 frame: the database is down.
      if (!(event.code === 1013 && this.databaseDown)) this.databaseDown = false;
      this.on.lost(this.databaseDown);
      const delay = Math.min(15000, 500 * 2 ** this.attempts) * (0.75 + Math.random() * 0.5);
      this.attempts += 1;
      setTimeout(() => this.connect(), delay);
    });
  }

  send(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(message));
      this.lastSent = message.type;
      return true;
    }
    return false;
  }

  // Not an answerable command: a 503 after it is about connecting, so `lastSent` stays as it is.
  sync(version) {
    this.socket?.send(JSON.stringify({ type: "sync", version }));
  }

  sendMove(move, version) {
    if (!this.send({ type: "move", move, version })) return false;
    this.outgoing = { move, version, tries: 0, timer: null };
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
    if (move && !(this.connected && this.send({ type: "move", move, version }))) this.resendLater(0);
  }

  handleError(message) {
    const { status } = message;
    const answered = this.lastSent;
    const forMove = this.outgoing && answered === "move";
    this.lastSent = null;
    if (forMove && (status === 503 || (status === 429 && this.outgoing.tries))) {
      this.resendLater(Number(message.retry_after) || 0);
    } else if (forMove) this.dropOutgoing();
    // A 503 answering a move or nothing (on connecting: the socket closes with 1013 and reconnects).
    if (status === 503 && (forMove || !answered)) this.databaseDown = true;
    this.on.error(message, forMove || !answered);
  }
}
