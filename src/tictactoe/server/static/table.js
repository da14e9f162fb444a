// The table page: draws the table the server sends over the WebSocket and reports clicks. It has
// no rules of its own: legal moves, where a move sends the opponent, won boards and winning lines
// all come from the server.
import { Board, other, smallBoardOf } from "./board.js";
import { RovingFocus, input } from "./board_keys.js";
import { t } from "./strings.js";
import { Actions } from "./table_actions.js";
import { Connection } from "./table_connection.js";
import { Company } from "./table_company.js";
import { Clocks, renderPlayers } from "./table_people.js";
import {
  computerThinking, errorText, isOver, isPlayerSeat, moveText, outcome, pendingText, settingsText, statusText,
  waitingText,
} from "./table_text.js";

const page = document.querySelector("[data-table-page]");
const tableId = page.dataset.tableId;
const boardEl = page.querySelector("[data-board]");
const statusEl = page.querySelector("[data-status]");
const barEl = page.querySelector("[data-play-bar]");
const noticeEl = page.querySelector("[data-notice]");
const hintEl = page.querySelector("[data-hint]");
const connectionEl = page.querySelector("[data-connection]");
const errorEl = page.querySelector("[data-error]");
const announcer = page.querySelector("[data-announcer]");
const settingsEl = page.querySelector("[data-settings]");
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

const board = new Board(boardEl, { onPlay: (move) => play(move) });
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
  let spoken = null;
  let turnSound = false;
  for (const event of events) {
    if (event.type === "moved") {
      spoken = moveText(next, event, seat);
      if (!player || event.mark !== seat) company.sounds.play("move");
    } else if (event.type === "game-over") {
      spoken = statusText(next, seat);
      company.sounds.play("end");
    } else if (event.type === "game-started") {
      // A rematch starts the new game where the players can see it.
      boardEl.scrollIntoView({ block: "nearest" });
      spoken = t("Game {n}. {status}", { n: next.game, status: statusText(next, seat) });
      turnSound = true;
    } else if (event.type === "taken-back") {
      spoken = t("Move taken back. {status}", { status: statusText(next, seat) });
      turnSound = true;
    } else if (event.type === "takeback-declined" && player && event.mark === other(seat)) {
      spoken = t("Your opponent declined the takeback.");
      notice(spoken);
    } else if (event.type === "draw-declined" && player && event.mark === other(seat)) {
      notice(t("Your opponent declined the draw."));
    }
  }
  if (turnSound && isPlayerSeat(seat) && !isOver(next) && next.turn === seat) company.sounds.play("turn");
  if (spoken) announce(spoken);
}

// ---- drawing ------------------------------------------------------------------------------------

function render(tbl) {
  const myTurn = !isOver(tbl) && isPlayerSeat(seat) && tbl.turn === seat;
  const canPlay = myTurn && !connection.outgoing && connection.connected;
  board.render(tbl, { legal: canPlay ? tbl.legal_moves : [] });
  boardEl.dataset.seat = seat;
  boardEl.classList.toggle("my-turn", myTurn);
  keys.update();
  const extra = waitingText(tbl, seat) || pendingText(tbl, seat);
  statusEl.textContent = extra ? `${statusText(tbl, seat)} · ${extra}` : statusText(tbl, seat);
  barEl.dataset.outcome = outcome(tbl, seat);
  statusEl.classList.toggle("thinking", computerThinking(tbl));
  renderPlayers(page, tbl, seat, myMember);
  actions.render(tbl, seat, connection.connected, canClaim);
  company.render(tbl, seat);
  clocks.render();
  settingsEl.textContent = settingsText(tbl);
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
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => { noticeEl.textContent = ""; }, 6000);
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
  if (!connection.outgoing && connection.databaseDown) {
    connection.databaseDown = false;
    connectionEl.textContent = "";
  }
  render(next);
  react(events, next);
}

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
// opponent; a finger's tap plays at once, so it shows nothing.
const preview = (button) => { hintEl.textContent = board.preview(button); };
boardEl.addEventListener("pointerover", (event) => {
  if (event.pointerType !== "touch") preview(event.target.closest("button[data-move]"));
});
boardEl.addEventListener("pointerleave", () => preview(input.keyboard ? document.activeElement?.closest?.("[data-move]") : null));
boardEl.addEventListener("focusin", (event) => preview(input.keyboard ? event.target.closest("button[data-move]") : null));
boardEl.addEventListener("focusout", () => preview(null));

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
