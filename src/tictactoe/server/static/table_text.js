// What the table page says in words: the status line, the settings line, a move (for the screen
// reader's live region) and what a refusal means.
import { boardName, other, smallBoardOf, upper, whereToPlay } from "./board.js";
import { numberFormat, t } from "./strings.js";

export const isOver = (tbl) => tbl.result !== null && tbl.result !== undefined;
export const isPlayerSeat = (seat) => seat === "x" || seat === "o";
export const freeSeat = (tbl) => ["x", "o"].find((mark) => !tbl.seats?.[mark]?.taken) ?? null;

// How the game ended for this viewer: "won", "lost", "draw", or "over" (a spectator's view).
export function outcome(tbl, seat) {
  if (!isOver(tbl)) return "";
  if (tbl.result === "draw") return "draw";
  if (!isPlayerSeat(seat)) return "over";
  return tbl.result === seat ? "won" : "lost";
}

// A side's display name, once its player has set one (never at a team table: a side is many).
export const nameOf = (tbl, mark) => (tbl.teams ? null : tbl.seats?.[mark]?.name ?? null);

// The opponent as the page speaks of them: by name once known, else "Your opponent" (`key` is the
// English line with "Your opponent", `named` the same line with "{name}").
export function aboutOpponent(tbl, seat, key, named) {
  const name = isPlayerSeat(seat) ? nameOf(tbl, seat === "x" ? "o" : "x") : null;
  return name ? t(named, { name }) : t(key);
}

export const computerThinking = (tbl) => !isOver(tbl) && Boolean(tbl.seats?.[tbl.turn]?.computer);

const HOW_IT_ENDED = {
  resign: "{mark} resigned", abandon: "{mark} left the game", time: "{mark} ran out of time",
};

export function statusText(tbl, seat) {
  // Two people at one device: the page speaks to both, so it names the side, never "you".
  if (tbl.opponent === "here") seat = "spectator";
  if (isOver(tbl)) {
    const ended = outcome(tbl, seat);
    if (ended === "draw" && tbl.ended_by === "agreement") return t("Drawn by agreement");
    if (ended === "draw") return t("Draw: nobody wins");
    const result = ended === "won" ? t("You won") : ended === "lost" ? t("You lost")
      : t("{mark} wins", { mark: upper(tbl.result) });
    const how = HOW_IT_ENDED[tbl.ended_by];
    // The language's own joiner and order ("{result} — {how}"), not an English dash.
    return how ? t("{result} — {how}", { result, how: t(how, { mark: upper(other(tbl.result)) }) }) : result;
  }
  const name = nameOf(tbl, tbl.turn);
  const text = tbl.turn === seat ? t("Your move")
    : computerThinking(tbl) ? t("The computer is thinking…")
    : isPlayerSeat(seat) && !tbl.teams ? aboutOpponent(tbl, seat, "Your opponent's move", "{name} to move")
    // A spectator, or two people at one device: the name with its mark, "Anna (X) to move".
    : name ? t("{name} to move", { name: `${name} (${upper(tbl.turn)})` })
    : t("{mark} to move", { mark: upper(tbl.turn) });
  return tbl.variant === "ultimate" ? t("{status} — {where}", { status: text, where: whereToPlay(tbl) }) : text;
}

// What is asked of this player right now, said after the status.
export function pendingText(tbl, seat) {
  // The opponent's questions are asked in their own one-line prompts; said here: what waits on
  // the opponent's answer, and the rematch (its button is the answer).
  if (!isPlayerSeat(seat) || tbl.opponent === "here") return "";
  if (isOver(tbl) && tbl.rematch?.[other(seat)] && !tbl.rematch?.[seat]) {
    return aboutOpponent(tbl, seat, "Your opponent asks for a rematch.", "{name} asks for a rematch.");
  }
  if (!isOver(tbl) && tbl.takeback_asked_by === seat) return t("Takeback asked: waiting for your opponent");
  if (!isOver(tbl) && tbl.draw_offer === seat) return t("Draw offered: waiting for your opponent");
  return "";
}

export function waitingText(tbl, seat) {
  if (!freeSeat(tbl) || tbl.opponent !== "friend" || isOver(tbl)) return "";
  if (isPlayerSeat(seat)) return t("Waiting for your friend to join: send them the link.");
  return t("A seat is free: take it to play.");
}

// A number as the page's language writes it (a decimal comma in most of them: 0,5 min).
const decimals = numberFormat({ maximumFractionDigits: 2 });
const number = (value) => decimals.format(value);

export function settingsText(tbl) {
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

// What the live region says after a move (the `moved` event): one sentence with the status that
// follows, so each language orders and punctuates what happened and what comes next.
export function moveText(next, event, seat) {
  const played = { mark: upper(event.mark), cell: event.move, status: statusText(next, seat) };
  if (next.variant !== "ultimate") return t("{mark} played {cell}. {status}", played);
  return t("{mark} played {cell} ({board}). {status}", { ...played, board: boardName(smallBoardOf(event.move)) });
}

// What a refusal means, by its reason (every refusal has one: see /docs).
const ERRORS = {
  "takebacks-off": "Takebacks are not allowed at this table.",
  "reaction-too-soon": "Slow down: one reaction at a time.",
  "rate-limited": "Too many requests: wait a moment.",
  "database-unavailable": "The server cannot reach its database: try again in a moment.",
  "not-your-turn": "It is not your turn.",
  "stale-version": "The board changed in the meantime: here is the latest position.",
  malformed: "That move is not allowed.",
  "off-board": "That move is not allowed.",
  occupied: "That move is not allowed.",
  "wrong-board": "That move is not allowed.",
  "closed-board": "That move is not allowed.",
  "seats-taken": "That seat has just been taken.",
  "game-over": "The game is already over.",
  "bad-name": "A name has 1 to 20 characters: letters, digits, spaces and - _ . '",
  "draw-pending": "You have already offered a draw.",
  "nothing-to-take-back": "You have no move to take back.",
  "takeback-pending": "A takeback has already been asked for.",
};

export const errorText = (reason) => t(ERRORS[reason] ?? "Something went wrong. Please try again.");
