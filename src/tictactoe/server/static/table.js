// The table page: draws the table the server sends over the WebSocket and reports clicks. It has
// no rules of its own: legal moves, where a move sends the opponent, won boards and winning lines
// all come from the server.
import { Board, other, smallBoardOf, whereToPlay } from "./board.js";
import { RovingFocus, input } from "./board_keys.js";
import { t } from "./strings.js";
import { Actions } from "./table_actions.js";
import { Connection } from "./table_connection.js";
import { Company } from "./table_company.js";
import { Clocks, renderPlayers, renderStrips } from "./table_people.js";
import {
  aboutOpponent, computerThinking, errorText, freeSeat, isOver, isPlayerSeat, moveText, outcome, pendingText, settingsText,
  statusText, waitingText,
} from "./table_text.js";

const page = document.querySelector("[data-table-page]");
const tableId = page.dataset.tableId;
const boardEl = page.querySelector("[data-board]");
const statusEl = page.querySelector("[data-status]");
const barEl = page.querySelector("[data-play-bar]");
const noticeEl = page.querySelector("[data-notice]");
const hintEl = page.querySelector("[data-hint]");
const connectionEl = page.querySelector("[data-connection-note]");
const errorEl = page.querySelector("[data-error]");
const announcer = page.querySelector("[data-announcer]");
const settingsEl = page.querySelector("[data-settings]");
const watchingEl = page.querySelector("[data-watching]");
const myMember = page.dataset.member === "" ? null : Number(page.dataset.member);
const baseTitle = document.title;

let table = null;
let seat = boardEl.dataset.seat || "spectator"; // as the server names it in every `table` frame
let canClaim = false; // whether the server says this viewer may claim the win now
let wasMyTurn = false;

const connection = new Connection(tableId, {
  table: (next, told) => accept(next, told),
  reaction: (message) => actions.showReaction(message),
  error: (message, aboutDatabase) => {
    if (message.status === 503 && aboutDatabase) showDatabaseDown();
    else errorEl.textContent = errorText(message.reason);
    if (table) render(table);
  },
  open: () => {
    if (!connection.databaseDown) connectionEl.textContent = "";
    if (table) {
      connection.sync(table.version);
      render(table);
    }
  },
  lost: (databaseDown) => {
    if (databaseDown) showDatabaseDown();
    else connectionEl.textContent = t("Connection lost: reconnecting…");
    if (table) render(table);
  },
  refused: () => { errorEl.textContent = t("Something went wrong. Please try again."); },
});

function send(message) {
  if (connection.send(message)) return true;
  errorEl.textContent = t("Connection lost: reconnecting…");
  return false;
}

let previewing = null; // the cell a first tap shows, with "Tap twice to play" on
const board = new Board(boardEl, { onPlay: (move) => tapped(move) });
// Keyboard players start in the board they are sent to.
const keys = new RovingFocus(board, (enabled) => {
  if (table?.variant === "ultimate" && table.sent_to !== null && table.sent_to !== undefined) {
    const inBoard = enabled.filter((b) => smallBoardOf(b.dataset.move) === table.sent_to);
    if (inBoard.length) return inBoard[Math.floor(inBoard.length / 2)];
  }
  return enabled[0] ?? null;
});
const actions = new Actions(page, {
  tableId, send, say: (text) => { errorEl.textContent = text; }, announce,
});
const company = new Company(page, { send, say: (text) => notice(text) });
const clocks = new Clocks(page, (mark, left) => {
  if (table && mark === seat) company.clockTick(table, seat, left);
});

// ---- what happened: the events a frame carries -------------------------------------------------

function react(events, next) {
  const player = isPlayerSeat(seat) && next.opponent !== "here";
  const friend = isPlayerSeat(seat) && next.opponent === "friend";
  const mine = (event) => player && event.mark === seat;
  const theirs = (event) => player && event.mark === other(seat);
  let spoken = null;
  let turnSound = false;
  let lapsed = null;
  let movedBy = null;
  for (const event of events) {
    if (event.type === "moved") {
      movedBy = event.mark;
      spoken = moveText(next, event, seat);
      if (!player || event.mark !== seat) company.sounds.play("move");
    } else if (event.type === "game-over") {
      spoken ??= statusText(next, seat); // after a move, its sentence already ends with the result
      company.sounds.play("end");
    } else if (event.type === "game-started") {
      // A rematch starts the new game where the players can see it.
      boardEl.scrollIntoView({ block: "nearest" });
      spoken = t("Game {n}. {status}", { n: next.game, status: statusText(next, seat) });
      turnSound = true;
      if (friend) notice(t("You play {mark} this game.", { mark: seat.toUpperCase() }));
    } else if (event.type === "seat-taken" && friend && !next.teams && event.mark === other(seat)) {
      opponentArrived(next);
    } else if (event.type === "seat-taken" && friend && event.mark === seat && tossText(next)) {
      notice(tossText(next)); // just sat down at a table whose first game a coin decided
    } else if (event.type === "taken-back") {
      spoken = t("Move taken back. {status}", { status: statusText(next, seat) });
      turnSound = true;
      if (mine(event)) notice(t("Move taken back."));
    } else if (event.type === "takeback-asked" && mine(event)) {
      clearNotice(); // a new question: the old answer goes
    } else if (event.type === "takeback-declined" && theirs(event)) {
      spoken = aboutOpponent(next, seat, "Your opponent declined the takeback.", "{name} declined the takeback.");
      notice(spoken);
    } else if (event.type === "draw-declined" && theirs(event)) {
      notice(aboutOpponent(next, seat, "Your opponent declined the draw.", "{name} declined the draw."));
    } else if (event.type === "draw-lapsed" && mine(event) && movedBy === other(seat) && !isOver(next)) {
      lapsed = t("Your opponent played on: your draw offer lapsed.");
    } else if (event.type === "takeback-lapsed" && mine(event) && movedBy === other(seat)) {
      lapsed ??= t("Your opponent played on: your takeback request lapsed.");
    }
  }
  if (lapsed) notice(lapsed);
  if (turnSound && isPlayerSeat(seat) && !isOver(next) && next.turn === seat) company.sounds.play("turn");
  if (spoken) announce(spoken);
}

// ---- drawing ------------------------------------------------------------------------------------

// A friend's table plays once both seats are taken: until then the link to send lies over the board.
// Nobody in the other seat yet: the server takes no move (`no-opponent`), teams included.
const seatFree = (tbl) => tbl.opponent === "friend" && Boolean(freeSeat(tbl)) && !isOver(tbl);
const waitingForFriend = (tbl) => seatFree(tbl) && !tbl.teams;

function render(tbl) {
  const myTurn = !isOver(tbl) && isPlayerSeat(seat) && tbl.turn === seat;
  const canPlay = myTurn && !connection.outgoing && connection.connected && !seatFree(tbl);
  board.render(tbl, { legal: canPlay ? tbl.legal_moves : [] });
  // Your mark at once, drawn pending until the server has it.
  const pending = connection.outgoing && board.cells.get(connection.outgoing.move);
  if (pending) {
    pending.textContent = seat.toUpperCase();
    pending.dataset.mark = seat;
    pending.classList.add("pending");
  }
  for (const cell of boardEl.querySelectorAll(".cell.pending")) {
    if (cell !== pending) cell.classList.remove("pending");
  }
  boardEl.dataset.connection = connection.connected ? "open" : "reconnecting";
  page.classList.toggle("reconnecting", !connection.connected);
  boardEl.dataset.seat = seat;
  boardEl.classList.toggle("my-turn", myTurn);
  // Whose turn, on the board itself: the playable frame in the mover's colour, muted while the
  // opponent thinks (the stylesheet's .their-turn).
  boardEl.classList.toggle("their-turn", !isOver(tbl) && isPlayerSeat(seat) && tbl.opponent !== "here" && !myTurn);
  keys.update();
  const extra = pendingText(tbl, seat);
  statusEl.textContent = !connection.connected && !isOver(tbl) ? t("Reconnecting…")
    : waitingForFriend(tbl) ? `${statusText(tbl, seat)} · ${waitingText(tbl, seat)}`
    : extra ? `${statusText(tbl, seat)} · ${extra}` : statusText(tbl, seat);
  barEl.dataset.outcome = outcome(tbl, seat);
  statusEl.classList.toggle("thinking", computerThinking(tbl));
  renderPlayers(page, tbl, seat, myMember);
  renderStrips(page, tbl, seat);
  actions.render(tbl, seat, connection.connected, canClaim);
  company.render(tbl, seat);
  clocks.render();
  settingsEl.textContent = settingsText(tbl);
  watchingEl.hidden = seat !== "spectator";
  revealBar();
  if (document.hidden && myTurn && !wasMyTurn) document.title = `● ${t("Your move")} · ${baseTitle}`;
  wasMyTurn = myTurn;
  // For the page's other parts (hints.js): the table as drawn, and whose turn it is here.
  page.dispatchEvent(new CustomEvent("table:render", { detail: { table: tbl, seat, myTurn } }));
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

// A passing word (not an error): shown in the bar for a few seconds.
let noticeTimer = null;
function notice(text) {
  noticeEl.textContent = text;
  revealBar();
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(clearNotice, 6000);
}

function clearNotice() {
  clearTimeout(noticeTimer);
  noticeEl.textContent = "";
}

function showDatabaseDown() {
  connectionEl.textContent = t("The server cannot reach its database: retrying…");
}

// A table from the server: `seat` (null: unchanged, after a move), `canClaim`, and the `events`
// of the change it follows.
function accept(next, { seat: told = null, canClaim: claimable = false, events = [] } = {}) {
  if (table && next.version < table.version) return; // an older state that arrived late
  const previous = table;
  if (told) seat = told;
  // Two people at one device: the page plays whichever side is to move.
  if (next.opponent === "here" && isPlayerSeat(seat) && !isOver(next)) seat = next.turn;
  canClaim = claimable;
  if (!previous || next.version !== previous.version) errorEl.textContent = "";
  table = next;
  clocks.set(next.clock);
  const { outgoing } = connection;
  const still = outgoing && next.version === outgoing.version && next.turn === seat
    && !isOver(next) && next.legal_moves.includes(outgoing.move);
  if (!still) connection.dropOutgoing();
  else if (outgoing.unsure) {
    // Back after a drop and the move has not landed: send it again (for the same version).
    outgoing.unsure = false;
    connection.send({ type: "move", move: outgoing.move, version: outgoing.version });
  }
  if (!connection.outgoing && connection.databaseDown) {
    connection.databaseDown = false;
    connectionEl.textContent = "";
  }
  if (!previous || next.version !== previous.version) clearTapPreview(); // the position moved on
  render(next);
  if (!previous) firstSight(next);
  react(events, next);
}

// Something new to answer or read in the bar (a question, the rematch, the claim, a notice): on a
// small screen the page scrolls just enough to show it above the thumb bar.
let barShown = "";
function revealBar() {
  const shown = [...barEl.querySelectorAll(".prompt, [data-rematch], [data-claim], [data-claim-countdown], [data-notice]")]
    .filter((el) => !el.hidden && el.textContent.trim()).map((el) => el.className).join();
  if (shown && shown !== barShown) {
    // The thumb bar's own height: its labels wrap to two lines in some languages (Japanese).
    const thumbBar = document.querySelector("[data-thumb-bar]");
    const fixed = thumbBar && getComputedStyle(thumbBar).position === "fixed";
    barEl.style.scrollMarginBlockEnd = fixed ? `${thumbBar.getBoundingClientRect().height + 8}px` : "";
    barEl.scrollIntoView({ block: "nearest" });
  }
  barShown = shown;
}

// A visitor at a full table is told they watch; a player, who won the coin toss.
function firstSight(next) {
  if (seat === "spectator" && !freeSeat(next) && next.opponent === "friend") notice(t("You are watching this table."));
  else if (tossText(next)) notice(tossText(next));
}

// The opponent taking the free seat: a sound, the tab's title, a line for screen readers (and,
// at the start of a first game a coin decided, who won the toss).
function opponentArrived(next) {
  const yours = next.turn === seat && !isOver(next);
  company.sounds.play("turn");
  const here = aboutOpponent(next, seat, "Your opponent is here.", "{name} is here.");
  const spoken = yours ? aboutOpponent(next, seat, "Your opponent is here: your move", "{name} is here: your move") : here;
  const toss = tossText(next);
  notice(toss ? `${here} ${toss}` : here);
  announce(spoken);
  if (document.hidden) document.title = `● ${spoken} · ${baseTitle}`;
}

// Who won the coin toss (the creator chose "random"), said at the start of the table's first game.
function tossText(next) {
  if (!next.tossed || next.game !== 1 || next.moves.length > 0 || isOver(next)) return "";
  if (!isPlayerSeat(seat) || next.opponent !== "friend" || next.teams) return "";
  return seat === "x" ? t("Coin toss: you move first.")
    : aboutOpponent(next, seat, "Coin toss: your opponent moves first.", "Coin toss: {name} moves first.");
}

// A tap on a cell that cannot be played says why, and where to play instead.
boardEl.addEventListener("pointerup", (event) => {
  const cell = event.target.closest?.("button[data-move]");
  if (!cell || !cell.disabled || !table || isOver(table) || !isPlayerSeat(seat)) return;
  if (table.opponent === "computer" && table.turn !== seat) return; // the thinking sign says it
  if (waitingForFriend(table)) return;
  let text;
  if (!connection.connected) text = t("Reconnecting…");
  else if (table.turn !== seat) text = t("Your opponent's move");
  else if (cell.dataset.mark) text = t("That cell is taken.");
  else if (table.variant === "ultimate") {
    text = t("{status} — {where}", { status: t("Not this cell"), where: whereToPlay(table) });
    for (const small of boardEl.querySelectorAll(".small-board.playable")) {
      small.classList.remove("pulse");
      void small.offsetWidth;
      small.classList.add("pulse");
    }
  }
  if (text) notice(text);
});

// ---- playing ------------------------------------------------------------------------------------

function play(move) {
  if (!table || connection.outgoing) return;
  if (connection.sendMove(move, table.version)) {
    keys.name = move;
    hintEl.textContent = board.preview(null);
    render(table);
  } else {
    errorEl.textContent = t("Connection lost: reconnecting…");
  }
}

// Pointing at a cell with a mouse, or reaching it with the keyboard, shows where it sends the
// opponent; a finger's tap plays at once, so it shows nothing (unless "Tap twice to play" is on).
const preview = (button) => { if (!previewing) hintEl.textContent = board.preview(button); };
boardEl.addEventListener("pointerover", (event) => {
  if (event.pointerType !== "touch") preview(event.target.closest("button[data-move]"));
});
boardEl.addEventListener("pointerleave", () => preview(input.keyboard ? document.activeElement?.closest?.("[data-move]") : null));
boardEl.addEventListener("focusin", (event) => preview(input.keyboard ? event.target.closest("button[data-move]") : null));
boardEl.addEventListener("focusout", () => preview(null));

// "Tap twice to play" (a setting kept in this browser, off by default): on a touch screen the
// first tap on a cell shows your mark there, faint, and where it sends the opponent; a second tap
// on it plays, a tap elsewhere shows that cell instead. A mouse or the keyboard plays at once.
const CONFIRM_KEY = "ttt-confirm-taps";
const confirmBox = page.querySelector("[data-confirm-taps]");
confirmBox.checked = localStorage.getItem(CONFIRM_KEY) === "on";
confirmBox.addEventListener("change", () => {
  localStorage.setItem(CONFIRM_KEY, confirmBox.checked ? "on" : "off");
  clearTapPreview();
});
let pointer = "mouse";
boardEl.addEventListener("pointerdown", (event) => { pointer = event.pointerType; }, { capture: true });

function clearTapPreview() {
  if (!previewing) return;
  previewing.classList.remove("tap-preview");
  delete previewing.dataset.previewMark;
  previewing = null;
  hintEl.textContent = board.preview(null);
}

function tapped(move) {
  if (pointer !== "touch" || !confirmBox.checked) return play(move);
  const cell = board.cells.get(move);
  if (previewing === cell) {
    clearTapPreview();
    return play(move);
  }
  clearTapPreview();
  previewing = cell;
  cell.dataset.previewMark = seat.toUpperCase();
  cell.classList.add("tap-preview");
  const sends = board.preview(cell);
  hintEl.textContent = sends ? `${sends} · ${t("Tap again to play")}` : t("Tap again to play");
}

document.addEventListener("keydown", (event) => {
  if (event.code !== "KeyB" || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target.closest?.("input, select, textarea")) return;
  const target = keys.preferred(keys.enabled());
  if (target) {
    event.preventDefault();
    keys.wanted = true;
    keys.focus(target);
  }
});

// The page comes with the `table` frame its socket would send first.
const initial = document.getElementById("initial-table");
if (initial) {
  const frame = JSON.parse(initial.textContent);
  accept(frame.table, { seat: frame.seat, canClaim: Boolean(frame.can_claim_win), events: [] });
}
connection.connect();
