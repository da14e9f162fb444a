// The analysis board: a position code or record opened from the address (the server reads it),
// stepped through and played on locally (the server answers with the positions, so the browser
// still knows no rules), then "play on from here" at a new table against a friend or the computer.
import { Board, stepStatus } from "./board.js";
import { copyButtons } from "./copy.js";
import { stepControls } from "./steps.js";
import { t } from "./strings.js";

const page = document.querySelector("[data-analysis-page]");
const data = JSON.parse(document.getElementById("analysis-data").textContent);
const statusEl = page.querySelector("[data-status]");
const errorEl = page.querySelector("[data-play-error]");
const positionEl = page.querySelector("[data-position-code]");
const recordEl = page.querySelector("[data-record]");
const moveList = page.querySelector("[data-move-list]");
const playOn = page.querySelector("[data-play-on]");
const bestButton = page.querySelector("[data-best-move]");
const bestEl = page.querySelector("[data-best-move-text]");

let steps = data.steps;
let moves = data.record ? data.record.split(" ") : [];
// Opened from a review at one move (`&ply=`): the whole game is here, shown at that move.
const asked = Number.parseInt(new URLSearchParams(window.location.search).get("ply") ?? "", 10);
let ply = Number.isInteger(asked) && asked >= 0 && asked < steps.length ? asked : steps.length - 1;
let busy = false;
let showBest = false;
const evaluations = new Map(); // position code → the computer's evaluation, once asked
const board = new Board(page.querySelector("[data-board]"), { onPlay: (move) => play(move) });
const evaluationEls = {
  root: page.querySelector("[data-evaluation]"), bar: page.querySelector("[data-evaluation-bar]"),
  fill: page.querySelector("[data-evaluation-fill]"), text: page.querySelector("[data-evaluation-text]"),
};
let evaluateTimer = null;

// What the computer thinks of the position shown: a bar leaning to the side it prefers and a few
// words, asked for shortly after a step (so that running through the moves asks only at the end).
function renderEvaluation(step) {
  const { root, bar, fill, text } = evaluationEls;
  clearTimeout(evaluateTimer);
  if (step.result) {
    root.hidden = true;
    return;
  }
  root.hidden = false;
  const evaluation = evaluations.get(step.position);
  if (!evaluation) {
    root.dataset.state = "asking";
    text.textContent = "…";
    if (!evaluations.has(step.position)) evaluateTimer = setTimeout(() => askComputer(step.position), 250);
    return;
  }
  const score = Math.max(-1, Math.min(1, evaluation.score));
  const leader = score > 0 ? "X" : "O";
  const words = evaluation.proven === "draw" ? t("With best play the game is a draw.")
    : evaluation.proven ? t("{mark} wins with best play", { mark: evaluation.proven.toUpperCase() })
    : Math.abs(score) < 0.1 ? t("Even position") : t("{mark} is better", { mark: leader });
  root.dataset.state = "shown";
  fill.style.width = `${((score + 1) / 2) * 100}%`;
  bar.setAttribute("aria-valuenow", score.toFixed(2));
  bar.setAttribute("aria-valuetext", words);
  text.textContent = words;
}

function go(next) {
  ply = Math.max(0, Math.min(steps.length - 1, next));
  render();
}

function render() {
  const step = steps[ply];
  const evaluation = showBest ? evaluations.get(step.position) : undefined;
  board.render({ ...step, variant: data.variant, size: data.size },
    { legal: step.legal_moves, marked: evaluation?.best_move ?? null });
  bestEl.textContent = evaluation?.best_move
    ? t("The computer would play {cell}", { cell: evaluation.best_move }) : "";
  if (showBest && !step.result && !evaluations.has(step.position)) askComputer(step.position);
  renderEvaluation(step);
  statusEl.textContent = stepStatus(step, data.variant);
  positionEl.value = step.position;
  recordEl.value = moves.slice(0, ply).join(" ");
  page.dataset.ply = String(ply);
  stepButtons.show();
  playOn.querySelector("button[type=submit]").disabled = Boolean(step.result);
  moveList.replaceChildren(...moves.map((move, i) => {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = `${i + 1}. ${move}`;
    if (i + 1 === ply) button.setAttribute("aria-current", "step");
    button.addEventListener("click", () => go(i + 1));
    item.append(button);
    return item;
  }));
}

// The computer's move in a position, asked once per position and kept.
async function askComputer(position) {
  if (evaluations.has(position)) return;
  evaluations.set(position, null);
  if (showBest) bestEl.textContent = t("The computer is looking at the game…");
  try {
    const response = await fetch("/api/positions/evaluation", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ variant: data.variant, line: data.line, position }),
    });
    if (!response.ok) throw new Error(String(response.status));
    evaluations.set(position, await response.json());
    render();
  } catch {
    evaluations.delete(position);
    const unavailable = t("The computer's analysis is not available right now.");
    if (showBest) bestEl.textContent = unavailable;
    if (steps[ply].position === position) evaluationEls.text.textContent = unavailable;
  }
}

bestButton.addEventListener("click", () => {
  showBest = !showBest;
  bestButton.setAttribute("aria-pressed", String(showBest));
  render();
});

async function play(move) {
  if (busy) return;
  busy = true;
  errorEl.textContent = "";
  const record = [...moves.slice(0, ply), move];
  try {
    const response = await fetch("/api/positions", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        variant: data.variant, size: data.size, line: data.line,
        position: data.start_position, record: record.join(" "),
      }),
    });
    if (!response.ok) throw new Error(String(response.status));
    steps = (await response.json()).steps;
    moves = record;
    ply = steps.length - 1;
    render();
  } catch {
    errorEl.textContent = t("Something went wrong. Please try again.");
  } finally {
    busy = false;
  }
}

const stepButtons = stepControls(page, { ply: () => ply, last: () => steps.length - 1, go });

copyButtons(page, t("Copied"));

const levelField = playOn.querySelector("[data-level-field]");
const syncLevel = () => { levelField.hidden = playOn.elements.opponent.value !== "computer"; };
for (const radio of playOn.elements.opponent) radio.addEventListener("change", syncLevel);
syncLevel();

playOn.addEventListener("submit", async (event) => {
  event.preventDefault();
  errorEl.textContent = "";
  const opponent = playOn.elements.opponent.value;
  // The one who plays on takes the side to move (X moves first at a new table, O second).
  const step = steps[ply];
  const body = { variant: data.variant, position: step.position, opponent, first: step.turn === "x" ? "me" : "friend" };
  if (data.variant === "standard") { body.size = data.size; body.line = data.line; }
  if (opponent === "computer") body.level = playOn.elements.level.value;
  try {
    const response = await fetch("/api/tables", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(String(response.status));
    window.location.assign((await response.json()).url);
  } catch {
    errorEl.textContent = t("Something went wrong. Please try again.");
  }
});

render();
