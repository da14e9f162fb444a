// A board drawn from one step the server sent ({position, last_move, boards, winning_lines,
// legal_moves}), with the table page's markup and styles, for the review and the analysis board.
// Like the table page it knows no rules: the cells that may be clicked come from `legal_moves`.
import { t } from "./strings.js";

const POSITIONS = [
  "top-left", "top-middle", "top-right",
  "middle-left", "centre", "middle-right",
  "bottom-left", "bottom-middle", "bottom-right",
];
const FILES = "abcdefghijklmnopqrstuvwxyz";
const upper = (mark) => mark.toUpperCase();

export const boardName = (i) => t(`${POSITIONS[i]} board`);
export const mustPlayIn = (i) => t(`must play in the ${POSITIONS[i]} board`);

function smallBoardOf(name) {
  const col = FILES.indexOf(name[0]);
  const row = 9 - Number(name.slice(1));
  return Math.floor(row / 3) * 3 + Math.floor(col / 3);
}

export class StepBoard {
  // `onPlay(move)` is called when an enabled cell is pressed; without it no cell is enabled.
  constructor(element, { variant, size, onPlay = null, highlight = null }) {
    this.el = element;
    this.variant = variant;
    this.size = variant === "ultimate" ? 9 : size;
    this.onPlay = onPlay;
    this.cells = new Map();
    this.smallBoards = [];
    this.build();
    this.el.addEventListener("click", (event) => {
      const button = event.target.closest("button[data-move]");
      if (button && !button.disabled && this.onPlay) this.onPlay(button.dataset.move);
    });
  }

  build() {
    const { size } = this;
    const ultimate = this.variant === "ultimate";
    this.el.replaceChildren();
    this.el.classList.add("board");
    this.el.classList.toggle("ultimate", ultimate);
    this.el.style.setProperty("--size", size);
    this.el.dataset.variant = this.variant;
    this.el.dataset.size = String(size);
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
  }

  // Draws `step`; `marked` is a cell to ring (the computer's best move), or null.
  render(step, marked = null) {
    const ultimate = this.variant === "ultimate";
    const rows = step.position.split(" ")[0].split("/");
    const lines = step.winning_lines ?? [];
    const winCells = new Set(ultimate ? [] : lines.flat());
    const winBoards = new Set(ultimate ? lines.flat().map(smallBoardOf) : []);
    const legal = new Set(this.onPlay ? step.legal_moves : []);
    Object.assign(this.el.dataset, { turn: step.turn, result: step.result ?? "" });
    for (const [name, button] of this.cells) {
      const mark = rows[Number(button.dataset.row)][Number(button.dataset.col)];
      button.textContent = mark === "." ? "" : upper(mark);
      button.dataset.mark = mark === "." ? "" : mark;
      button.disabled = !legal.has(name);
      button.classList.toggle("last", name === step.last_move);
      button.classList.toggle("win", winCells.has(name));
      button.classList.toggle("suggested", name === marked);
      const parts = [name];
      if (ultimate) parts.push(boardName(smallBoardOf(name)));
      parts.push(mark === "." ? t("empty") : upper(mark));
      if (name === step.last_move) parts.push(t("last move"));
      if (name === marked) parts.push(t("the computer's move"));
      button.setAttribute("aria-label", parts.join(", "));
    }
    if (ultimate) {
      const playable = new Set(step.result ? [] : step.legal_moves.map(smallBoardOf));
      this.smallBoards.forEach((el, i) => {
        const owner = step.boards?.[i] ?? null;
        el.dataset.owner = owner ?? "";
        el.classList.toggle("playable", playable.has(i));
        el.classList.toggle("win-line", winBoards.has(i));
        el.querySelector(".board-owner").textContent = owner === "x" || owner === "o" ? upper(owner) : "";
        const state = owner === "draw" ? t("drawn") : owner ? t("won by {mark}", { mark: upper(owner) }) : "";
        el.setAttribute("aria-label", state ? `${boardName(i)}, ${state}` : boardName(i));
      });
    }
  }
}

// The line under the board: who is to move (and where), or how the game ended.
export function stepStatus(step, variant) {
  if (step.result === "draw") return t("Draw: nobody wins");
  if (step.result) return t("{mark} wins", { mark: upper(step.result) });
  let text = t("{mark} to move", { mark: upper(step.turn) });
  if (variant === "ultimate") {
    text += ` — ${step.sent_to === null || step.sent_to === undefined
      ? t("free choice: any open board") : mustPlayIn(step.sent_to)}`;
  }
  return text;
}

// Copies `text` and says so on `button` for a moment.
export async function copyText(button, text, done) {
  const label = button.textContent;
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = done;
  } catch {
    return;
  }
  setTimeout(() => { button.textContent = label; }, 1500);
}
