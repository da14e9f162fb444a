// The review of a finished game: step through its positions (buttons, the move list, ←/→,
// Home/End), the computer's evaluation after every move as a chart with the biggest swings marked,
// its best move on request, and the record and position code to copy.
import { Board, stepStatus } from "./board.js";
import { copyButtons } from "./copy.js";
import { EvaluationChart } from "./evaluation_chart.js";
import { stepControls } from "./steps.js";
import { t } from "./strings.js";

const page = document.querySelector("[data-review-page]");
const game = JSON.parse(document.getElementById("game-data").textContent);
const last = game.steps.length - 1;
const board = new Board(page.querySelector("[data-board]"));
const statusEl = page.querySelector("[data-status]");
const plyEl = page.querySelector("[data-ply]");
const positionEl = page.querySelector("[data-position-code]");
const analysisLink = page.querySelector("[data-analysis-link]");
const bestButton = page.querySelector("[data-best-move]");
const bestEl = page.querySelector("[data-best-move-text]");
const analysisStatus = page.querySelector("[data-analysis-status]");
const moveList = page.querySelector("[data-move-list]");

let ply = last;
let analysis = null;
let showBest = false;
const chart = new EvaluationChart(page.querySelector("[data-chart-box]"), {
  label: t("The computer's evaluation after every move: up is good for X, down for O"),
  onPick: (n) => go(n),
});

// The move list: one button per move, ringed where the evaluation swung most.
const moveButtons = game.moves.map((move, i) => {
  const item = document.createElement("li");
  const button = document.createElement("button");
  button.type = "button";
  button.dataset.ply = String(i + 1);
  button.textContent = `${i + 1}. ${move}`;
  button.addEventListener("click", () => go(i + 1));
  item.append(button);
  moveList.append(item);
  return button;
});

function go(next) {
  ply = Math.max(0, Math.min(last, next));
  render();
}

function render() {
  const step = game.steps[ply];
  const evaluation = analysis?.evaluations[ply];
  board.render({ ...step, variant: game.variant, size: game.size },
    { marked: showBest && evaluation ? evaluation.best_move : null });
  statusEl.textContent = stepStatus(step, game.variant);
  page.dataset.ply = String(ply);
  plyEl.textContent = t("Move {n} of {total}", { n: ply, total: last });
  positionEl.value = step.position;
  // The whole game goes to the analysis board, opened at this move: Forward still has the rest.
  const query = new URLSearchParams({ variant: game.variant, record: game.moves.join(" "), ply: String(ply) });
  if (game.variant === "standard") { query.set("size", game.size); query.set("line", game.line); }
  if (game.start_position) query.set("position", game.start_position);
  analysisLink.href = `/analysis?${query}`;
  stepButtons.show();
  moveButtons.forEach((button, i) => {
    if (i + 1 === ply) button.setAttribute("aria-current", "step");
    else button.removeAttribute("aria-current");
  });
  moveButtons[ply - 1]?.scrollIntoView({ block: "nearest" });
  chart.show(ply);
  bestEl.textContent = "";
  if (showBest && evaluation) {
    bestEl.textContent = evaluation.best_move
      ? t("The computer would play {cell}", { cell: evaluation.best_move }) : "";
  }
}

const stepButtons = stepControls(page, { ply: () => ply, last: () => last, go });

bestButton.addEventListener("click", () => {
  showBest = !showBest;
  bestButton.setAttribute("aria-pressed", String(showBest));
  render();
});

copyButtons(page, t("Copied"));

async function loadAnalysis() {
  if (game.result === null) return;
  analysisStatus.textContent = t("The computer is looking at the game…");
  try {
    const response = await fetch(`/api/tables/${game.table_id}/games/${game.game}/analysis`);
    if (!response.ok) throw new Error(String(response.status));
    analysis = await response.json();
  } catch {
    analysisStatus.textContent = t("The computer's analysis is not available right now.");
    return;
  }
  analysisStatus.textContent = analysis.swings.length
    ? t("Marked: the moves after which the evaluation swung most.") : "";
  chart.draw(analysis.evaluations, analysis.swings);
  for (const swing of analysis.swings) moveButtons[swing - 1]?.classList.add("swing");
  page.dataset.analysis = "ready";
  bestButton.disabled = false;
  render();
}

render();
loadAnalysis();
