// "Learn from the mistakes" on a review: once the computer has analysed the finished game, the
// moves after which the mover's evaluation fell most become exercises, each played again from the
// position before it. A move is right if it is the computer's, or if the computer rates the
// position after it about as well (asked through /api/positions and /api/positions/evaluation).
import { Board } from "./board.js";
import { t } from "./strings.js";

const section = document.querySelector("[data-mistakes]");
const game = JSON.parse(document.getElementById("game-data").textContent);
const list = section.querySelector("[data-mistake-list]");
const exercise = section.querySelector("[data-mistake-exercise]");
const taskEl = section.querySelector("[data-mistake-task]");
const feedbackEl = section.querySelector("[data-mistake-feedback]");
const retryButton = section.querySelector("[data-mistake-retry]");
const answerButton = section.querySelector("[data-mistake-answer]");
const board = new Board(section.querySelector("[data-mistake-board]"), { onPlay: (move) => tryMove(move) });
const MISTAKE = 0.3; // the least fall of the mover's evaluation (-1..1) that counts as a mistake
const AS_GOOD = 0.15; // a tried move this close to the computer's own counts as right
const SHOWN = 3;
let current = null; // { ply, played, best, before, step }
let busy = false;

const forMover = (score, mark) => (mark === "x" ? score : -score);

// The plies (1-based) of the biggest mistakes, in the order played.
export function findMistakes(evaluations, steps, moves) {
  const found = [];
  for (let ply = 1; ply < evaluations.length; ply++) {
    const mover = steps[ply - 1].turn;
    const before = evaluations[ply - 1];
    const loss = forMover(before.score, mover) - forMover(evaluations[ply].score, mover);
    if (loss >= MISTAKE && before.best_move && before.best_move !== moves[ply - 1]) found.push({ ply, loss });
  }
  return found.sort((a, b) => b.loss - a.loss).slice(0, SHOWN).map((m) => m.ply).sort((a, b) => a - b);
}

function draw(legal, marked = null) {
  board.render({ ...current.step, variant: game.variant, size: game.size }, { legal, marked });
}

function open(ply, evaluations) {
  const step = game.steps[ply - 1];
  current = { ply, played: game.moves[ply - 1], best: evaluations[ply - 1].best_move, before: evaluations[ply - 1].score, step };
  exercise.hidden = false;
  exercise.dataset.mistakePly = String(ply);
  exercise.dataset.mistakeResult = "";
  taskEl.textContent = t("{mark} to move: find a better move than {cell}.", { mark: step.turn.toUpperCase(), cell: current.played });
  feedbackEl.textContent = "";
  retryButton.hidden = answerButton.hidden = true;
  draw(step.legal_moves);
  taskEl.focus();
}

async function post(url, body) {
  const response = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(String(response.status));
  return response.json();
}

// How much the mover's evaluation falls with `move`, by the computer.
async function lossOf(move) {
  const read = await post("/api/positions", { variant: game.variant, size: game.size, line: game.line, position: current.step.position, record: move });
  const after = read.steps.at(-1);
  const evaluation = await post("/api/positions/evaluation", { variant: game.variant, line: game.line, position: after.position });
  return forMover(current.before, current.step.turn) - forMover(evaluation.score, current.step.turn);
}

function judge(result, text) {
  exercise.dataset.mistakeResult = result;
  feedbackEl.textContent = text;
  retryButton.hidden = result === "right";
  answerButton.hidden = result === "right";
}

async function tryMove(move) {
  if (busy || exercise.dataset.mistakeResult) return;
  draw([], move);
  if (move === current.best) return judge("right", t("Right: that is the computer's move."));
  if (move === current.played) return judge("wrong", t("That is the move played in the game. Look for a better one."));
  busy = true;
  feedbackEl.textContent = t("The computer is looking at the game…");
  try {
    const loss = await lossOf(move);
    if (loss < AS_GOOD) judge("right", t("Good too: the computer rates it about as well as its own move."));
    else judge("wrong", t("The computer still prefers another move. Try again."));
  } catch {
    feedbackEl.textContent = t("The computer's analysis is not available right now.");
    draw(current.step.legal_moves);
  } finally {
    busy = false;
  }
}

retryButton.addEventListener("click", () => {
  exercise.dataset.mistakeResult = "";
  feedbackEl.textContent = "";
  retryButton.hidden = answerButton.hidden = true;
  draw(current.step.legal_moves);
});
answerButton.addEventListener("click", () => {
  draw([], current.best);
  feedbackEl.textContent = t("The computer would play {cell}", { cell: current.best });
});

async function start() {
  if (game.result === null) return;
  let analysis = null;
  // The same analysis the chart shows: the server works it out once for both. A busy computer
  // (503) is asked again a few times.
  for (let attempt = 0; attempt < 5 && !analysis; attempt++) {
    try {
      const response = await fetch(`/api/tables/${game.table_id}/games/${game.game}/analysis`);
      if (response.ok) analysis = await response.json();
      else if (response.status !== 503) return;
    } catch { /* the network: try again */ }
    if (!analysis) await new Promise((resolve) => setTimeout(resolve, 3000));
  }
  if (!analysis) return;
  const plies = findMistakes(analysis.evaluations, game.steps, game.moves);
  section.hidden = false;
  section.querySelector("[data-mistakes-none]").hidden = plies.length > 0;
  list.replaceChildren(...plies.map((ply) => {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "button";
    button.dataset.mistake = String(ply);
    button.textContent = t("Move {n}: {mark} played {cell}", { n: ply, mark: game.steps[ply - 1].turn.toUpperCase(), cell: game.moves[ply - 1] });
    button.addEventListener("click", () => open(ply, analysis.evaluations));
    item.append(button);
    return item;
  }));
}

// The moves this browser played after a hint (kept by hints.js at the table), marked here.
function markHints() {
  let used = [];
  try {
    used = JSON.parse(localStorage.getItem("ttt-hints-used") ?? "{}")[`${game.table_id}/${game.game}`] ?? [];
  } catch { /* nothing kept */ }
  const plies = used.filter((ply) => ply >= 1 && ply <= game.moves.length).sort((a, b) => a - b);
  if (!plies.length) return;
  const note = document.querySelector("[data-hints-used]");
  note.hidden = false;
  note.textContent = t("Played after a hint: {moves}.", { moves: plies.map((ply) => `${ply}. ${game.moves[ply - 1]}`).join(", ") });
  for (const ply of plies) {
    const button = document.querySelector(`[data-move-list] button[data-ply="${ply}"]`);
    if (!button) continue;
    button.dataset.hinted = "true";
    button.append(` · ${t("hint")}`);
  }
}

markHints();
start();
