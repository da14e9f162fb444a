// The course: each step is a position and a task; the page knows the right cells (they are no
// secret) and asks the server for the positions to draw (/api/positions: the browser knows no
// rules). Progress is kept in this browser (localStorage).
import { Board, stepStatus } from "./board.js";
import { RovingFocus, input } from "./board_keys.js";
import { t } from "./strings.js";

const page = document.querySelector("[data-learn]");
const { steps } = JSON.parse(document.getElementById("lessons-data").textContent);
// Each step's words, from its entry in the list of steps.
const texts = Object.fromEntries(steps.map(({ id }) => {
  const item = page.querySelector(`[data-lesson-text="${id}"]`);
  const part = (name) => item.querySelector(`[data-part="${name}"]`).textContent;
  return [id, { title: item.querySelector("[data-lesson-go]").textContent, task: part("task"), why: part("why"), wrong: part("wrong") }];
}));
const boardEl = page.querySelector("[data-board]");
const titleEl = page.querySelector("[data-lesson-title]");
const countEl = page.querySelector("[data-lesson-count]");
const taskEl = page.querySelector("[data-lesson-task]");
const whereEl = page.querySelector("[data-where]");
const feedbackEl = page.querySelector("[data-lesson-feedback]");
const retryButton = page.querySelector("[data-lesson-retry]");
const nextButton = page.querySelector("[data-lesson-next]");
const finishedEl = page.querySelector("[data-lesson-finished]");
const KEY = "ttt-lessons";

const board = new Board(boardEl, { onPlay: (move) => answer(move) });
const keys = new RovingFocus(board, (enabled) => enabled[0]);
let index = 0;
let shown = null; // { step, view } of the step on the board

function done() {
  try { return new Set(JSON.parse(localStorage.getItem(KEY) ?? "[]")); } catch { return new Set(); }
}

function markDone(id) {
  const ids = done();
  ids.add(id);
  try { localStorage.setItem(KEY, JSON.stringify([...ids])); } catch { /* not kept */ }
  showProgress();
}

function showProgress() {
  const ids = done();
  for (const button of page.querySelectorAll("[data-lesson-go]")) {
    const id = button.dataset.lessonGo;
    button.dataset.done = String(ids.has(id));
    button.setAttribute("aria-label", ids.has(id) ? `${texts[id].title} (${t("done")})` : texts[id].title);
    if (id === steps[index].id) button.setAttribute("aria-current", "step");
    else button.removeAttribute("aria-current");
  }
}

// The position after `record` (a move, or "" for the start), as the review draws it.
async function positionAfter(step, record) {
  const response = await fetch("/api/positions", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ variant: step.variant, line: step.line, position: step.position, record }),
  });
  if (!response.ok) throw new Error(String(response.status));
  const read = await response.json();
  return { ...read.steps.at(-1), variant: read.variant, size: read.size };
}

// Every empty cell, read off the drawing of the position (for "where may I play?").
function emptyCells(view) {
  const rows = view.position.split(" ")[0].split("/");
  const names = [];
  rows.forEach((row, r) => [...row].forEach((mark, c) => {
    if (mark === ".") names.push(`${"abcdefghi"[c]}${rows.length - r}`);
  }));
  return names;
}

function draw(view, playable) {
  const legal = !playable ? [] : shown.step.any_cell ? emptyCells(view) : view.legal_moves;
  board.render(view, { legal });
  keys.update();
  whereEl.textContent = stepStatus(view, view.variant);
}

function setResult(result) {
  page.dataset.lessonResult = result;
  feedbackEl.dataset.outcome = result;
}

async function show(i, { focus = false } = {}) {
  index = i;
  const step = steps[i];
  page.dataset.lessonStep = step.id;
  setResult("");
  titleEl.textContent = texts[step.id].title;
  taskEl.textContent = texts[step.id].task;
  countEl.textContent = t("Step {n} of {total}", { n: i + 1, total: steps.length });
  feedbackEl.textContent = "";
  retryButton.hidden = nextButton.hidden = true;
  finishedEl.hidden = true;
  showProgress();
  history.replaceState(null, "", `#${step.id}`);
  try {
    const view = await positionAfter(step, "");
    shown = { step, view };
    draw(view, true);
  } catch {
    feedbackEl.textContent = t("Something went wrong. Please try again.");
  }
  if (focus) titleEl.focus();
}

async function answer(move) {
  if (!shown || page.dataset.lessonResult) return;
  const { step } = shown;
  if (step.answers.includes(move)) {
    setResult("right");
    feedbackEl.textContent = texts[step.id].why;
    markDone(step.id);
    const last = index === steps.length - 1;
    nextButton.hidden = last;
    finishedEl.hidden = !last;
    try { draw(await positionAfter(step, move), false); } catch { draw(shown.view, false); }
    if (!last && input.keyboard) nextButton.focus();
  } else {
    setResult("wrong");
    feedbackEl.textContent = texts[step.id].wrong;
    draw(shown.view, false);
    board.cells.get(move)?.classList.add("wrong");
    retryButton.hidden = false;
    if (input.keyboard) retryButton.focus();
  }
}

retryButton.addEventListener("click", () => {
  board.cells.forEach((button) => button.classList.remove("wrong"));
  setResult("");
  feedbackEl.textContent = "";
  retryButton.hidden = true;
  draw(shown.view, true);
  if (input.keyboard) keys.focus(board.cells.get(keys.name));
});
nextButton.addEventListener("click", () => show(index + 1, { focus: true }));
for (const button of page.querySelectorAll("[data-lesson-go]")) {
  button.addEventListener("click", () => show(steps.findIndex((s) => s.id === button.dataset.lessonGo), { focus: true }));
}

const preview = (button) => { if (!page.dataset.lessonResult && shown) whereEl.textContent = board.preview(button) || stepStatus(board.view, board.view.variant); };
boardEl.addEventListener("pointerover", (event) => { if (event.pointerType !== "touch") preview(event.target.closest("button[data-move]")); });
boardEl.addEventListener("focusin", (event) => { if (input.keyboard) preview(event.target.closest("button[data-move]")); });

const fromAddress = steps.findIndex((s) => `#${s.id}` === location.hash);
const firstNotDone = steps.findIndex((s) => !done().has(s.id));
show(fromAddress >= 0 ? fromAddress : Math.max(0, firstNotDone));
