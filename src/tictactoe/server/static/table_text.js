// What the table page says in words: the status line, the settings line, what changed (for the
// screen reader's live region) and what an error means.
import { boardName, markOn, other, smallBoardOf, upper, whereToPlay } from "./board.js";
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
  const text = tbl.turn === seat ? t("Your move")
    : computerThinking(tbl) ? t("The computer is thinking…")
    : isPlayerSeat(seat) && !tbl.teams ? t("Your opponent's move") : t("{mark} to move", { mark: upper(tbl.turn) });
  return tbl.variant === "ultimate" ? t("{status} — {where}", { status: text, where: whereToPlay(tbl) }) : text;
}

// What is asked of this player right now, said after the status.
export function pendingText(tbl, seat) {
  // The opponent's questions are asked in their own one-line prompts; said here: what waits on
  // the opponent's answer, and the rematch (its button is the answer).
  if (!isPlayerSeat(seat) || tbl.opponent === "here") return "";
  if (isOver(tbl) && tbl.rematch?.[other(seat)] && !tbl.rematch?.[seat]) return t("Your opponent asks for a rematch.");
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

// Whether the opponent has just said no to this player's takeback.
export const takebackDeclined = (previous, next, seat) =>
  Boolean(previous) && previous.takeback_asked_by === seat && next.takeback_asked_by === null
    && next.moves.length === previous.moves.length && !isOver(next);

// What the live region says about the step from `previous` to `next` (null: nothing worth saying).
export function describeChange(previous, next, seat) {
  if (!previous) return null;
  // Whole sentences, so each language orders and punctuates what happened and what comes next.
  const status = statusText(next, seat);
  if (next.game !== previous.game) return t("Game {n}. {status}", { n: next.game, status });
  if (next.moves.length < previous.moves.length) return t("Move taken back. {status}", { status });
  if (takebackDeclined(previous, next, seat)) return t("Your opponent declined the takeback.");
  if (next.moves.length > previous.moves.length && next.last_move) {
    const played = { mark: upper(markOn(next, next.last_move) || other(next.turn)), cell: next.last_move, status };
    if (next.variant !== "ultimate") return t("{mark} played {cell}. {status}", played);
    return t("{mark} played {cell} ({board}). {status}", { ...played, board: boardName(smallBoardOf(next.last_move)) });
  }
  if (isOver(next) !== isOver(previous)) return statusText(next, seat);
  return null;
}

export function errorText(status, reason) {
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
