// A puzzle: the solver plays on the board, the server judges each move (the browser knows no
// rules and not the answer) and answers with the defender's reply, or with the refutation of a
// wrong move, drawn on the board. The rating moves after the first try (puzzle_rating.js).
import { Board, stepStatus } from "./board.js";
import { RovingFocus, input } from "./board_keys.js";
import { copyButtons } from "./copy.js";
import { load, nextPuzzleUrl, record } from "./puzzle_rating.js";
import { t } from "./strings.js";

const page = document.querySelector("[data-puzzle]");
const data = JSON.parse(document.getElementById("puzzle-data").textContent);
const puzzle = data.puzzle;
const boardEl = page.querySelector("[data-board]");
const feedbackEl = page.querySelector("[data-puzzle-feedback]");
const whereEl = page.querySelector("[data-where]");
const retryButton = page.querySelector("[data-retry]");
const nextButton = page.querySelector("[data-next-puzzle]");
const ratingEl = page.querySelector("[data-rating]");
const changeEl = page.querySelector("[data-rating-change]");
const REPLY_DELAY_MS = 450;

let moves = [];
let busy = false;
let over = false;
const board = new Board(boardEl, { onPlay: (move) => play(move) });
const keys = new RovingFocus(board, (enabled) => enabled[0]);

function show(step, { playable = true } = {}) {
  board.render({ ...step, variant: "ultimate" }, { legal: playable && !over ? step.legal_moves : [] });
  keys.update();
  whereEl.textContent = stepStatus(step, "ultimate");
}

function showRating(change) {
  ratingEl.textContent = String(Math.round(load().rating));
  if (change) changeEl.textContent = change > 0 ? `+${change}` : `−${Math.abs(change)}`;
}

function finish(result, solved) {
  over = true;
  page.dataset.puzzleResult = result;
  showRating(record(puzzle.id, puzzle.rating, solved));
  retryButton.hidden = solved;
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function play(move) {
  if (busy || over) return;
  busy = true;
  try {
    const response = await fetch(`/api/puzzles/${puzzle.id}/attempt`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ moves: [...moves, move] }),
    });
    if (!response.ok) throw new Error(String(response.status));
    const judged = await response.json();
    show(judged.steps[0], { playable: false });
    if (judged.correct) {
      moves.push(move);
      if (judged.solved) {
        feedbackEl.textContent = t("Solved!");
        finish("solved", true);
        show(judged.steps[0], { playable: false });
        return;
      }
      await pause(REPLY_DELAY_MS);
      feedbackEl.textContent = t("Right! Find the next move.");
      show(judged.steps[1]);
    } else {
      const [reply] = judged.refutation;
      feedbackEl.textContent = reply
        ? t("Not this one: {cell} beats it. Try again, or take the next puzzle.", { cell: reply })
        : t("Not this one: it ends the game in a draw. Try again, or take the next puzzle.");
      finish("failed", false);
      if (reply) {
        await pause(REPLY_DELAY_MS);
        show(judged.steps[1], { playable: false });
      }
    }
  } catch {
    feedbackEl.textContent = t("Something went wrong. Please try again.");
  } finally {
    busy = false;
  }
}

retryButton.addEventListener("click", () => {
  moves = [];
  over = false;
  page.dataset.puzzleResult = "";
  feedbackEl.textContent = "";
  retryButton.hidden = true;
  show(data.step);
  if (input.keyboard) keys.focus(board.cells.get(keys.name));
});

nextButton.addEventListener("click", async () => {
  feedbackEl.textContent = t("Finding a puzzle…");
  try {
    location.assign(await nextPuzzleUrl());
  } catch {
    feedbackEl.textContent = t("Something went wrong. Please try again.");
  }
});

copyButtons(page, t("Copied"));

const preview = (button) => { if (!over) whereEl.textContent = board.preview(button) || stepStatus(board.view, "ultimate"); };
boardEl.addEventListener("pointerover", (event) => { if (event.pointerType !== "touch") preview(event.target.closest("button[data-move]")); });
boardEl.addEventListener("focusin", (event) => { if (input.keyboard) preview(event.target.closest("button[data-move]")); });

showRating(0);
show(data.step);
