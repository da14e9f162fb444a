// The table page: draws the board from the table the server sends over the WebSocket and reports
// clicks. It has no rules of its own: legal moves, where a move sends the opponent, won boards and
// winning lines all come from the server.
import { t } from "./strings.js";

const POSITIONS = [
  "top-left", "top-middle", "top-right",
  "middle-left", "centre", "middle-right",
  "bottom-left", "bottom-middle", "bottom-right",
];
const FILES = "abcdefghijklmnopqrstuvwxyz";
const LEVELS = { easy: "Easy", medium: "Medium", hard: "Hard", max: "Strongest" };
const boardName = (i) => t(`${POSITIONS[i]} board`);
const mustPlayIn = (i) => t(`must play in the ${POSITIONS[i]} board`);
const sendsTo = (i) =>
  i === null ? t("sends the opponent to a closed board: free choice")
    : t(`sends the opponent to the ${POSITIONS[i]} board`);
const other = (mark) => (mark === "x" ? "o" : "x");
const upper = (mark) => mark.toUpperCase();

const page = document.querySelector("[data-table-page]");
const tableId = page.dataset.tableId;
const boardEl = page.querySelector("[data-board]");
const statusEl = page.querySelector("[data-status]");
const hintEl = page.querySelector("[data-hint]");
const connectionEl = page.querySelector("[data-connection]");
const errorEl = page.querySelector("[data-error]");
const announcer = page.querySelector("[data-announcer]");
const joinButton = page.querySelector("[data-join]");
const rematchButton = page.querySelector("[data-rematch]");
const claimButton = page.querySelector("[data-claim]");
const resignButton = page.querySelector("[data-resign]");
const shareCard = page.querySelector("[data-share-card]");
const shareLink = page.querySelector("[data-share-link]");
const copyButton = page.querySelector("[data-copy]");
const shareButton = page.querySelector("[data-share]");
const gameNumberEl = page.querySelector("[data-game-number]");
const settingsEl = page.querySelector("[data-settings]");
const reactionShown = page.querySelector("[data-reaction-shown]");
const reactionsCard = page.querySelector("[data-reactions]");
const takebackButton = page.querySelector("[data-takeback]");
const takebackPrompt = page.querySelector("[data-takeback-prompt]");
const myMember = page.dataset.member === "" ? null : Number(page.dataset.member);
const REACTIONS = {
  "good-move": ["👍", "Good move"], wow: ["😮", "Wow"], "good-game": ["🤝", "Good game"],
  oops: ["😅", "Oops"], thinking: ["⏳", "Thinking…"],
};
const baseTitle = document.title;

let table = null;
let seat = boardEl.dataset.seat || "spectator";
let seatGame = null; // the game number `seat` was last known for
let cells = new Map(); // cell name → button
let smallBoards = []; // ultimate: the 9 small board elements
let builtFor = "";
let rovingName = null; // the one cell in the tab order
let outgoing = null; // the move on its way {move, version, tries, timer}
let connected = false; // moves go over the socket: no playing while it is down
let wantsBoardFocus = false;

// ---- which seat this browser plays --------------------------------------------------------------

function viewerSeat(next) {
  const told = next.seat ?? next.viewer_seat ?? next.you;
  if (told === "x" || told === "o" || told === "spectator") {
    seat = told;
  } else if (seat !== "spectator" && seatGame !== null && next.game !== seatGame) {
    // A rematch swaps the marks: the person who played O now plays X, and back.
    if (Math.abs(next.game - seatGame) % 2 === 1) seat = other(seat);
  }
  seatGame = next.game;
  return seat;
}

const isOver = (tbl) => tbl.result !== null && tbl.result !== undefined;
const isPlayer = () => seat === "x" || seat === "o";
const freeSeat = (tbl) => ["x", "o"].find((mark) => !tbl.seats?.[mark]?.taken) ?? null;

// ---- the board ------------------------------------------------------------------------------------

function cellName(row, col, size) {
  return `${FILES[col]}${size - row}`;
}

function smallBoardOf(name, size) {
  const col = FILES.indexOf(name[0]);
  const row = size - Number(name.slice(1));
  return Math.floor(row / 3) * 3 + Math.floor(col / 3);
}

function build(tbl) {
  const size = tbl.size;
  const ultimate = tbl.variant === "ultimate";
  boardEl.replaceChildren();
  boardEl.classList.toggle("ultimate", ultimate);
  boardEl.style.setProperty("--size", size);
  cells = new Map();
  smallBoards = [];
  if (ultimate) {
    for (let b = 0; b < 9; b++) {
      const small = document.createElement("div");
      small.className = "small-board";
      small.setAttribute("role", "group");
      small.dataset.smallBoard = String(b);
      const owner = document.createElement("span");
      owner.className = "board-owner";
      owner.setAttribute("aria-hidden", "true");
      small.append(owner);
      smallBoards.push(small);
      boardEl.append(small);
    }
  }
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; col++) {
      const name = cellName(row, col, size);
      const button = document.createElement("button");
      button.type = "button";
      button.className = "cell";
      button.dataset.move = name;
      button.dataset.row = String(row);
      button.dataset.col = String(col);
      button.tabIndex = -1;
      button.disabled = true;
      const parent = ultimate ? smallBoards[Math.floor(row / 3) * 3 + Math.floor(col / 3)] : boardEl;
      parent.append(button);
      cells.set(name, button);
    }
  }
  builtFor = `${tbl.variant}:${size}`;
}

function grid(tbl) {
  return tbl.position.split(" ")[0].split("/");
}

function cellLabel(tbl, name, mark, legal) {
  const parts = [name];
  const ultimate = tbl.variant === "ultimate";
  if (ultimate) parts.push(boardName(smallBoardOf(name, tbl.size)));
  parts.push(mark === "." ? t("empty") : upper(mark));
  if (name === tbl.last_move) parts.push(t("last move"));
  if (legal && ultimate && tbl.sends_to && name in tbl.sends_to) parts.push(sendsTo(tbl.sends_to[name]));
  return parts.join(", ");
}

function statusText(tbl) {
  if (isOver(tbl)) {
    if (tbl.result === "draw") return t("Draw: nobody wins");
    let text = tbl.result === seat ? t("You win!") : t("{mark} wins", { mark: upper(tbl.result) });
    const loser = upper(other(tbl.result));
    if (tbl.ended_by === "resign") text += ` — ${t("{mark} resigned", { mark: loser })}`;
    if (tbl.ended_by === "abandon") text += ` — ${t("{mark} left the game", { mark: loser })}`;
    if (tbl.ended_by === "time") text += ` — ${t("{mark} ran out of time", { mark: loser })}`;
    return text;
  }
  let text = tbl.turn === seat ? t("Your move") : t("{mark} to move", { mark: upper(tbl.turn) });
  if (tbl.variant === "ultimate") {
    text += ` — ${tbl.sent_to === null || tbl.sent_to === undefined
      ? t("free choice: any open board") : mustPlayIn(tbl.sent_to)}`;
  }
  return text;
}

function renderBoard(tbl) {
  if (builtFor !== `${tbl.variant}:${tbl.size}`) build(tbl);
  const over = isOver(tbl);
  const ultimate = tbl.variant === "ultimate";
  const myTurn = !over && isPlayer() && tbl.turn === seat;
  const legal = new Set(myTurn && !outgoing && connected ? tbl.legal_moves : []);
  const rows = grid(tbl);
  const lines = tbl.winning_lines ?? [];
  const winCells = new Set(ultimate ? [] : lines.flat());
  const winBoards = new Set(ultimate ? lines.flat().map((c) => smallBoardOf(c, tbl.size)) : []);

  // Disabling the focused cell would drop focus on the page body: park it on the board instead.
  if (boardEl.contains(document.activeElement) && !legal.has(document.activeElement.dataset?.move)) {
    boardEl.focus({ preventScroll: true });
  }
  Object.assign(boardEl.dataset, {
    variant: tbl.variant,
    size: String(tbl.size),
    turn: tbl.turn,
    result: tbl.result ?? "",
    seat,
  });
  boardEl.classList.toggle("my-turn", myTurn);
  for (const [name, button] of cells) {
    const mark = rows[Number(button.dataset.row)][Number(button.dataset.col)];
    button.textContent = mark === "." ? "" : upper(mark);
    button.dataset.mark = mark === "." ? "" : mark;
    button.disabled = !legal.has(name);
    button.classList.toggle("last", name === tbl.last_move);
    button.classList.toggle("win", winCells.has(name));
    button.setAttribute("aria-label", cellLabel(tbl, name, mark, legal.has(name)));
  }
  if (ultimate) {
    const playable = new Set(tbl.legal_moves.map((c) => smallBoardOf(c, tbl.size)));
    smallBoards.forEach((el, i) => {
      const owner = tbl.boards?.[i] ?? null;
      el.dataset.owner = owner ?? "";
      el.classList.toggle("playable", playable.has(i));
      el.classList.toggle("win-line", winBoards.has(i));
      el.querySelector(".board-owner").textContent = owner === "x" || owner === "o" ? upper(owner) : "";
      const state = owner === "draw" ? t("drawn") : owner ? t("won by {mark}", { mark: upper(owner) }) : "";
      el.setAttribute("aria-label", state ? `${boardName(i)}, ${state}` : boardName(i));
    });
  }
  updateRoving(tbl);
}

// ---- keyboard: a roving tab stop over the playable cells ----------------------------------------

function enabledCells() {
  return [...cells.values()].filter((button) => !button.disabled);
}

function preferredCell(tbl) {
  const enabled = enabledCells();
  if (tbl && tbl.variant === "ultimate" && tbl.sent_to !== null && tbl.sent_to !== undefined) {
    const inBoard = enabled.filter((b) => smallBoardOf(b.dataset.move, tbl.size) === tbl.sent_to);
    if (inBoard.length) return inBoard[Math.floor(inBoard.length / 2)];
  }
  return enabled[0] ?? null;
}

function updateRoving(tbl) {
  let target = cells.get(rovingName);
  if (!target || target.disabled) target = preferredCell(tbl);
  for (const button of cells.values()) button.tabIndex = -1;
  if (!target) return;
  target.tabIndex = 0;
  rovingName = target.dataset.move;
  if (wantsBoardFocus && document.activeElement === boardEl) target.focus({ preventScroll: true });
}

function focusCell(button) {
  if (!button) return;
  for (const b of cells.values()) b.tabIndex = -1;
  button.tabIndex = 0;
  rovingName = button.dataset.move;
  button.focus();
}

const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

function step(from, [dr, dc]) {
  // The nearest playable cell in the arrow's direction, staying in the same row or column if it can.
  const r0 = Number(from.dataset.row);
  const c0 = Number(from.dataset.col);
  let best = null;
  let bestScore = Infinity;
  for (const button of enabledCells()) {
    const r = Number(button.dataset.row) - r0;
    const c = Number(button.dataset.col) - c0;
    const along = dr ? r * dr : c * dc;
    if (along <= 0) continue;
    const score = (dr ? Math.abs(c) : Math.abs(r)) * 100 + along;
    if (score < bestScore) [best, bestScore] = [button, score];
  }
  return best;
}

boardEl.addEventListener("keydown", (event) => {
  const direction = ARROWS[event.key];
  if (!direction) return;
  event.preventDefault();
  const from = event.target.closest?.("button[data-move]") ?? cells.get(rovingName);
  if (from) focusCell(step(from, direction) ?? (from.disabled ? null : from));
});

document.addEventListener("keydown", (event) => {
  if (event.code !== "KeyB" || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target.closest?.("input, select, textarea")) return;
  const target = preferredCell(table);
  if (target) {
    event.preventDefault();
    wantsBoardFocus = true;
    focusCell(target);
  }
});

boardEl.addEventListener("focusin", (event) => {
  wantsBoardFocus = true;
  preview(event.target.closest("button[data-move]"));
});
boardEl.addEventListener("focusout", (event) => {
  if (event.relatedTarget && !boardEl.contains(event.relatedTarget)) wantsBoardFocus = false;
  preview(null);
});

// ---- pointing at a cell shows where it sends the opponent ---------------------------------------

function preview(button) {
  boardEl.classList.remove("preview-free");
  for (const el of smallBoards) el.classList.remove("preview");
  hintEl.textContent = "";
  if (!button || button.disabled || !table || table.variant !== "ultimate") return;
  const name = button.dataset.move;
  if (!table.sends_to || !(name in table.sends_to)) return;
  const target = table.sends_to[name];
  if (target === null) boardEl.classList.add("preview-free");
  else smallBoards[target]?.classList.add("preview");
  hintEl.textContent = `${name}: ${sendsTo(target)}`;
}

boardEl.addEventListener("pointerover", (event) => preview(event.target.closest("button[data-move]")));
boardEl.addEventListener("pointerleave", () => preview(document.activeElement?.closest?.("[data-move]")));

// ---- the rest of the page -----------------------------------------------------------------------

function renderPlayers(tbl) {
  for (const mark of ["x", "o"]) {
    const row = page.querySelector(`[data-player="${mark}"]`);
    const info = tbl.seats?.[mark] ?? {};
    let name = t("Player");
    if (tbl.teams) name = t("Team");
    else if (info.computer) name = tbl.level in LEVELS ? `${t("Computer")} · ${t(LEVELS[tbl.level])}` : t("Computer");
    else if (!info.taken) name = t("Free seat");
    else if (mark === seat) name = t("You");
    else if (isPlayer()) name = t("Your opponent");
    row.querySelector("[data-name]").textContent = name;
    const presence = row.querySelector("[data-presence]");
    const shown = info.taken && !info.computer;
    presence.textContent = shown ? (info.connected ? t("online") : t("offline")) : "";
    presence.dataset.state = shown ? (info.connected ? "online" : "offline") : "";
    row.querySelector("[data-wins]").textContent = String(tbl.score?.[mark] ?? 0);
    renderMembers(row.querySelector("[data-members]"), tbl.teams ? info.members ?? [] : null, mark);
    row.classList.toggle("to-move", !isOver(tbl) && tbl.turn === mark);
  }
  page.querySelector("[data-draws]").textContent = String(tbl.score?.draws ?? 0);
  gameNumberEl.textContent = tbl.game > 1 ? `· ${t("Game {n}", { n: tbl.game })}` : "";
}

function renderMembers(list, members, mark) {
  list.hidden = !members?.length;
  if (!members) return;
  list.replaceChildren(...members.map((member, i) => {
    const item = document.createElement("li");
    const state = member.connected ? "online" : "offline";
    item.textContent = mark === seat && i === myMember ? t("You") : t("Player {n}", { n: i + 1 });
    const presence = document.createElement("span");
    presence.className = "presence";
    presence.dataset.state = state;
    presence.textContent = ` ${t(state)}`;
    item.append(presence);
    return item;
  }));
}

// ---- the clock: the server's times, counted down here between frames ------------------------------

let clockAt = 0; // performance.now() when the latest clock arrived

function formatTime(seconds) {
  const s = Math.max(0, seconds);
  if (s < 10) return `0:0${s.toFixed(1)}`;
  const whole = Math.ceil(s);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

function renderClocks() {
  const clock = table?.clock;
  for (const mark of ["x", "o"]) {
    const el = page.querySelector(`[data-clock="${mark}"]`);
    el.hidden = !clock;
    if (!clock) continue;
    const running = clock.running === mark;
    const left = clock[mark] - (running ? (performance.now() - clockAt) / 1000 : 0);
    el.textContent = formatTime(left);
    el.dataset.running = running ? "true" : "";
    el.classList.toggle("low", left < 10);
  }
}
setInterval(renderClocks, 200);

// A number as the page's language writes it (a decimal comma in most of them: 0,5 min).
const numberFormat = new Intl.NumberFormat(document.documentElement.lang, { maximumFractionDigits: 2 });
const number = (value) => numberFormat.format(value);

function settingsText(tbl) {
  const parts = [];
  if (tbl.clock) {
    parts.push(t("{minutes} min, +{seconds} s per move",
      { minutes: number(tbl.clock.seconds / 60), seconds: number(tbl.clock.increment) }));
  }
  if (tbl.teams) parts.push(t("Two teams"));
  if (tbl.takebacks) parts.push(t("Takebacks allowed"));
  if (tbl.private) parts.push(t("Private table"));
  return parts.join(" · ");
}

function hasMyMove(tbl) {
  return tbl.moves.length >= (tbl.turn === seat ? 2 : 1);
}

function renderTakeback(tbl) {
  const open = tbl.takebacks && isPlayer() && !isOver(tbl);
  const asked = tbl.takeback_asked_by;
  takebackButton.hidden = !open || asked === other(seat);
  takebackPrompt.hidden = !open || asked !== other(seat);
  takebackButton.disabled = !connected || asked === seat || !hasMyMove(tbl);
  takebackButton.textContent = asked === seat ? t("Takeback asked: waiting for your opponent")
    : t("Ask to take back your move");
}

function renderActions(tbl) {
  const over = isOver(tbl);
  const free = freeSeat(tbl);
  const teamsOpen = tbl.teams && !over;
  joinButton.hidden = !(seat === "spectator" && (free || teamsOpen) && tbl.opponent !== "computer");
  joinButton.textContent = tbl.teams && !free ? t("Join a team") : t("Take the free seat");
  resignButton.hidden = !(isPlayer() && !over);
  claimButton.hidden = !(isPlayer() && !over && tbl.can_claim_win);
  rematchButton.hidden = !(isPlayer() && over);
  if (over && isPlayer()) {
    const asked = tbl.rematch ?? {};
    rematchButton.disabled = Boolean(asked[seat]);
    rematchButton.textContent = asked[seat] ? t("Rematch asked: waiting for your opponent")
      : asked[other(seat)] ? t("Accept the rematch") : t("Rematch");
  }
  shareCard.hidden = tbl.opponent === "computer";
  reactionsCard.hidden = !isPlayer();
  for (const button of reactionsCard.querySelectorAll("button")) button.disabled = !connected;
  renderTakeback(tbl);
  if (tbl.url && shareLink.value !== tbl.url) shareLink.value = tbl.url;
}

function waitingText(tbl) {
  if (!freeSeat(tbl) || tbl.opponent === "computer" || isOver(tbl)) return "";
  if (isPlayer()) return t("Waiting for your friend to join: send them the link.");
  return t("A seat is free: take it to play.");
}

let wasMyTurn = false;

function render(tbl) {
  renderBoard(tbl);
  const waiting = waitingText(tbl);
  statusEl.textContent = waiting ? `${statusText(tbl)} · ${waiting}` : statusText(tbl);
  renderPlayers(tbl);
  renderActions(tbl);
  renderClocks();
  settingsEl.textContent = settingsText(tbl);
  const myTurn = !isOver(tbl) && isPlayer() && tbl.turn === seat;
  if (document.hidden && myTurn && !wasMyTurn) document.title = `● ${t("Your move")} · ${baseTitle}`;
  wasMyTurn = myTurn;
}

document.addEventListener("visibilitychange", () => {
  if (!document.hidden) document.title = baseTitle;
});

function announce(text) {
  // Clearing first makes screen readers speak a message even when it repeats the previous one.
  announcer.textContent = "";
  requestAnimationFrame(() => {
    announcer.textContent = text;
  });
}

function describeChange(previous, next) {
  if (!previous) return null;
  if (next.game !== previous.game) return `${t("Game {n}", { n: next.game })}. ${statusText(next)}`;
  if (next.moves.length < previous.moves.length) return `${t("Move taken back.")} ${statusText(next)}`;
  if (previous.takeback_asked_by === seat && next.takeback_asked_by === null
      && next.moves.length === previous.moves.length && !isOver(next)) {
    errorEl.textContent = t("Your opponent declined the takeback.");
    return errorEl.textContent;
  }
  if (next.moves.length > previous.moves.length && next.last_move) {
    const mark = upper(rowsMark(next, next.last_move) || other(next.turn));
    let text = t("{mark} played {cell}", { mark, cell: next.last_move });
    if (next.variant === "ultimate") text += ` (${boardName(smallBoardOf(next.last_move, next.size))})`;
    return `${text}. ${statusText(next)}`;
  }
  if (isOver(next) !== isOver(previous)) return statusText(next);
  return null;
}

function rowsMark(tbl, name) {
  const col = FILES.indexOf(name[0]);
  const row = tbl.size - Number(name.slice(1));
  const mark = grid(tbl)[row]?.[col];
  return mark === "x" || mark === "o" ? mark : "";
}

function accept(next) {
  if (table && next.version < table.version) return; // an older state that arrived late
  const previous = table;
  viewerSeat(next);
  if (!previous || next.version !== previous.version) errorEl.textContent = "";
  table = next;
  clockAt = performance.now();
  attempts = 0; // served again (an open socket alone may be closed at once)
  const still = outgoing && next.version === outgoing.version && next.turn === seat
    && !isOver(next) && next.legal_moves.includes(outgoing.move);
  if (!still) dropOutgoing();
  if (!outgoing && databaseDown) {
    databaseDown = false;
    connectionEl.textContent = "";
  }
  render(next);
  const message = describeChange(previous, next);
  if (message) announce(message);
}

// A 503 (no database) to a move: say so, resend it until it lands; the same version lands once.
let databaseDown = false;

function dropOutgoing() {
  clearTimeout(outgoing?.timer);
  outgoing = null;
}

function resendLater(seconds) {
  clearTimeout(outgoing.timer);
  const wait = seconds > 0 ? seconds : Math.min(10, 2 ** outgoing.tries);
  outgoing.tries += 1;
  outgoing.timer = setTimeout(resend, wait * 1000 * (0.75 + Math.random() * 0.5));
}

function resend() {
  const { move, version } = outgoing ?? {};
  if (move && !(connected && send({ type: "move", move, version }))) resendLater(0);
}

function showDatabaseDown() {
  databaseDown = true;
  connectionEl.textContent = t("The server cannot reach its database: retrying…");
}

// ---- the connection -----------------------------------------------------------------------------

let socket = null;
let attempts = 0;
let stopped = false;
let lastSent = null; // what an error frame answers

function errorText(status, reason) {
  if (reason === "takebacks-off") return t("Takebacks are not allowed at this table.");
  // Only the table's reaction limit gives a reason; a flood of moves or joins has none.
  if (status === 429 && reason === "rate-limited") return t("Slow down: one reaction at a time.");
  if (status === 429) return t("Too many requests: wait a moment.");
  if (status === 503) return t("The server cannot reach its database: try again in a moment.");
  if (status === 403) return t("It is not your turn.");
  if (status === 409) return t("The board changed in the meantime: here is the latest position.");
  if (status === 422) return t("That move is not allowed.");
  return t("Something went wrong. Please try again.");
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${scheme}//${location.host}/api/tables/${encodeURIComponent(tableId)}/ws`);
  socket = ws;
  ws.addEventListener("open", () => {
    connected = true;
    if (!databaseDown) connectionEl.textContent = "";
    if (table) {
      ws.send(JSON.stringify({ type: "sync", version: table.version }));
      render(table);
    }
  });
  ws.addEventListener("message", (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    if (message.type === "table" && message.table) accept(message.table);
    else if (message.type === "reaction" && REACTIONS[message.reaction]) showReaction(message);
    else if (message.type === "error") handleError(message);
  });
  ws.addEventListener("close", (event) => {
    if (socket !== ws) return;
    socket = null;
    connected = false;
    lastSent = null;
    // A move refused with 503 is still wanted; one merely in flight may have landed.
    if (!outgoing?.tries) dropOutgoing();
    // 4xxx: the server said this table is gone or refused us for good; don't hammer it.
    if (stopped || (event.code >= 4000 && event.code < 5000)) {
      if (!stopped) errorEl.textContent = t("Something went wrong. Please try again.");
      return;
    }
    // 1013 "try again later" after a 503 frame: the database is down.
    if (event.code === 1013 && databaseDown) showDatabaseDown();
    else {
      databaseDown = false;
      connectionEl.textContent = t("Connection lost: reconnecting…");
    }
    if (table) render(table);
    const delay = Math.min(15000, 500 * 2 ** attempts) * (0.75 + Math.random() * 0.5);
    attempts += 1;
    setTimeout(connect, delay);
  });
}

window.addEventListener("pagehide", () => {
  stopped = true;
  socket?.close();
});
// Back to a page kept in the browser's back-forward cache: its socket was closed on the way out.
window.addEventListener("pageshow", (event) => {
  if (!event.persisted) return;
  stopped = false;
  if (!socket) connect();
});

function handleError(message) {
  const { status } = message;
  const answered = lastSent;
  const forMove = outgoing && answered === "move";
  lastSent = null;
  if (forMove && (status === 503 || (status === 429 && outgoing.tries))) {
    resendLater(Number(message.retry_after) || 0);
  } else if (forMove) dropOutgoing();
  // A 503 answering nothing: on connecting; the socket closes (1013) and reconnects.
  if (status === 503 && (forMove || !answered)) showDatabaseDown();
  else errorEl.textContent = errorText(status, message.reason);
  if (table) render(table);
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify(message));
    lastSent = message.type;
    return true;
  }
  errorEl.textContent = t("Connection lost: reconnecting…");
  return false;
}

boardEl.addEventListener("click", (event) => {
  const button = event.target.closest("button[data-move]");
  if (!button || button.disabled || !table || outgoing) return;
  if (send({ type: "move", move: button.dataset.move, version: table.version })) {
    outgoing = { move: button.dataset.move, version: table.version, tries: 0, timer: null };
    rovingName = button.dataset.move;
    preview(null);
    render(table);
  }
});

let resignArmed = null;
function disarmResign() {
  clearTimeout(resignArmed);
  resignArmed = null;
  resignButton.textContent = t("Resign");
}
resignButton.addEventListener("click", () => {
  if (resignArmed) {
    disarmResign();
    send({ type: "resign" });
    return;
  }
  resignButton.textContent = t("Really resign? Press again");
  resignArmed = setTimeout(disarmResign, 5000);
});

rematchButton.addEventListener("click", () => send({ type: "rematch" }));
takebackButton.addEventListener("click", () => send({ type: "takeback" }));
page.querySelector("[data-takeback-accept]").addEventListener("click", () => send({ type: "accept-takeback" }));
page.querySelector("[data-takeback-decline]").addEventListener("click", () => send({ type: "decline-takeback" }));
reactionsCard.addEventListener("click", (event) => {
  const button = event.target.closest("button[data-reaction]");
  if (button) send({ type: "react", reaction: button.dataset.reaction });
});

let reactionTimer = null;
function showReaction({ reaction, side }) {
  const [emoji, label] = REACTIONS[reaction];
  reactionShown.textContent = `${upper(side)}: ${emoji} ${t(label)}`;
  reactionShown.dataset.reaction = reaction;
  clearTimeout(reactionTimer);
  reactionTimer = setTimeout(() => {
    reactionShown.textContent = "";
    reactionShown.dataset.reaction = "";
  }, 5000);
}
claimButton.addEventListener("click", () => send({ type: "claim" }));

joinButton.addEventListener("click", async () => {
  joinButton.disabled = true;
  try {
    const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/seats`, {
      method: "POST",
      credentials: "same-origin",
      headers: { Accept: "application/json" },
    });
    if (response.ok) {
      // The seat is bound to this browser's cookie: a fresh page load renders it as ours.
      location.reload();
      return;
    }
    errorEl.textContent = response.status === 409 ? t("That seat has just been taken.")
      : [429, 503].includes(response.status) ? errorText(response.status, null)
      : t("Something went wrong. Please try again.");
  } catch {
    errorEl.textContent = t("Something went wrong. Please try again.");
  }
  joinButton.disabled = false;
});

copyButton.addEventListener("click", async () => {
  try {
    await navigator.clipboard.writeText(shareLink.value);
  } catch {
    shareLink.select();
    document.execCommand("copy");
  }
  copyButton.textContent = t("Link copied");
  announce(t("Link copied"));
  setTimeout(() => {
    copyButton.textContent = t("Copy link");
  }, 2500);
});

if (navigator.share) {
  shareButton.hidden = false;
  shareButton.addEventListener("click", () => {
    navigator.share({ title: baseTitle, url: shareLink.value }).catch(() => {});
  });
}

const initial = document.getElementById("initial-table");
if (initial) accept(JSON.parse(initial.textContent));
connect();
