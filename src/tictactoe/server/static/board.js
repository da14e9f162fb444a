// The one board drawing: a standard or Ultimate board drawn from what the server sent (position,
// last move, closed boards, winning lines, legal moves, where each move sends the opponent), for the
// table, the review and the analysis board. It knows no rules: the cells that may be pressed are
// the ones the caller passes, taken from the server's `legal_moves`.
import { boardPositions as POSITIONS } from "./constants.js";
import { t } from "./strings.js";

const FILES = "abcdefghijklmnopqrstuvwxyz";
export const upper = (mark) => mark.toUpperCase();
export const other = (mark) => (mark === "x" ? "o" : "x");

export const boardName = (i) => t(`${POSITIONS[i]} board`);
export const mustPlayIn = (i) => t(`must play in the ${POSITIONS[i]} board`);
export const sendsTo = (i) =>
  i === null ? t("sends the opponent to a closed board: free choice")
    : t(`sends the opponent to the ${POSITIONS[i]} board`);

// The small board (0–8, rows from the top) a cell of the 9×9 grid lies in.
export function smallBoardOf(name, size = 9) {
  const col = FILES.indexOf(name[0]);
  const row = size - Number(name.slice(1));
  return Math.floor(row / 3) * 3 + Math.floor(col / 3);
}

// The mark on `name` in a position code ("" when empty).
export function markOn(view, name) {
  const rows = view.position.split(" ")[0].split("/");
  const mark = rows[view.size - Number(name.slice(1))]?.[FILES.indexOf(name[0])];
  return mark === "x" || mark === "o" ? mark : "";
}

// Where the side to move plays in Ultimate: a board, or anywhere open.
export const whereToPlay = (view) =>
  view.sent_to === null || view.sent_to === undefined ? t("free choice: any open board") : mustPlayIn(view.sent_to);

// The line under a board that is only looked at: who is to move (and where), or how it ended.
export function stepStatus(step, variant) {
  if (step.result === "draw") return t("Draw: nobody wins");
  if (step.result) return t("{mark} wins", { mark: upper(step.result) });
  const text = t("{mark} to move", { mark: upper(step.turn) });
  return variant === "ultimate" ? t("{status} — {where}", { status: text, where: whereToPlay(step) }) : text;
}

export class Board {
  // `onPlay(move)` is called when an enabled cell is pressed.
  constructor(element, { onPlay = null } = {}) {
    this.el = element;
    this.onPlay = onPlay;
    this.cells = new Map(); // cell name → button
    this.smallBoards = []; // Ultimate: the nine small boards
    this.builtFor = "";
    this.view = null;
    this.el.addEventListener("click", (event) => {
      const button = event.target.closest("button[data-move]");
      if (button && !button.disabled && this.onPlay) this.onPlay(button.dataset.move);
    });
  }

  build(variant, size) {
    const ultimate = variant === "ultimate";
    this.el.replaceChildren();
    this.el.classList.add("board");
    this.el.classList.toggle("ultimate", ultimate);
    this.el.style.setProperty("--size", size);
    this.cells = new Map();
    this.smallBoards = [];
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
        this.smallBoards.push(small);
        this.el.append(small);
      }
    }
    for (let row = 0; row < size; row++) {
      for (let col = 0; col < size; col++) {
        const name = `${FILES[col]}${size - row}`;
        const button = document.createElement("button");
        button.type = "button";
        button.className = "cell";
        button.dataset.move = name;
        button.dataset.row = String(row);
        button.dataset.col = String(col);
        button.disabled = true;
        const parent = ultimate ? this.smallBoards[Math.floor(row / 3) * 3 + Math.floor(col / 3)] : this.el;
        parent.append(button);
        this.cells.set(name, button);
      }
    }
    this.builtFor = `${variant}:${size}`;
  }

  // Draws `view`; `legal` are the cells that may be pressed now, `marked` a cell to ring (the
  // computer's move) or null.
  render(view, { legal = [], marked = null } = {}) {
    const size = view.variant === "ultimate" ? 9 : view.size;
    if (this.builtFor !== `${view.variant}:${size}`) this.build(view.variant, size);
    const fresh = this.view && view.last_move !== this.view.last_move ? view.last_move : null;
    this.view = view;
    const ultimate = view.variant === "ultimate";
    const playableNow = new Set(legal);
    const rows = view.position.split(" ")[0].split("/");
    const lines = view.winning_lines ?? [];
    const winCells = new Set(ultimate ? [] : lines.flat());
    const winBoards = new Set(ultimate ? lines.flat().map((c) => smallBoardOf(c)) : []);
    // Disabling the focused cell would drop focus on the page body: park it on the board instead.
    if (this.el.contains(document.activeElement) && !playableNow.has(document.activeElement.dataset?.move)) {
      this.el.focus({ preventScroll: true });
    }
    Object.assign(this.el.dataset, {
      variant: view.variant, size: String(size), turn: view.turn, result: view.result ?? "",
    });
    for (const [name, button] of this.cells) {
      const mark = rows[Number(button.dataset.row)][Number(button.dataset.col)];
      const enabled = playableNow.has(name);
      button.textContent = mark === "." ? "" : upper(mark);
      button.dataset.mark = mark === "." ? "" : mark;
      button.disabled = !enabled;
      button.classList.toggle("last", name === view.last_move);
      // A new last move is animated once (CSS), so an instant reply is not missed.
      if (name === fresh) {
        button.classList.remove("fresh");
        void button.offsetWidth;
        button.classList.add("fresh");
      }
      button.classList.toggle("win", winCells.has(name));
      button.classList.toggle("suggested", name === marked);
      const parts = [name];
      if (ultimate) parts.push(boardName(smallBoardOf(name)));
      parts.push(mark === "." ? t("empty") : upper(mark));
      if (name === view.last_move) parts.push(t("last move"));
      if (name === marked) parts.push(t("the computer's move"));
      if (enabled && ultimate && view.sends_to && name in view.sends_to) parts.push(sendsTo(view.sends_to[name]));
      button.setAttribute("aria-label", parts.join(", "));
    }
    if (ultimate) {
      const playable = new Set(view.result ? [] : view.legal_moves.map((c) => smallBoardOf(c)));
      this.smallBoards.forEach((el, i) => {
        const owner = view.boards?.[i] ?? null;
        el.dataset.owner = owner ?? "";
        el.classList.toggle("playable", playable.has(i));
        el.classList.toggle("win-line", winBoards.has(i));
        el.querySelector(".board-owner").textContent = owner === "x" || owner === "o" ? upper(owner) : "";
        const state = owner === "draw" ? t("drawn") : owner ? t("won by {mark}", { mark: upper(owner) }) : "";
        el.setAttribute("aria-label", state ? `${boardName(i)}, ${state}` : boardName(i));
      });
    }
  }

  // Frames the board a playable cell sends the opponent to; returns the words for it ("" if none).
  preview(button) {
    this.el.classList.remove("preview-free");
    for (const el of this.smallBoards) el.classList.remove("preview");
    const view = this.view;
    if (!button || button.disabled || !view || view.variant !== "ultimate") return "";
    const name = button.dataset.move;
    if (!view.sends_to || !(name in view.sends_to)) return "";
    const target = view.sends_to[name];
    if (target === null) this.el.classList.add("preview-free");
    else this.smallBoards[target]?.classList.add("preview");
    return t("{label}: {text}", { label: name, text: sendsTo(target) });
  }
}
