// Hints at a table against the computer: off until the player ticks the box (the choice is kept
// in this browser); then, on the player's turn, "Show a hint" rings the computer's move and says
// why (/api/hints words it in the page's language). The plies that had a hint are kept in this
// browser ("ttt-hints-used") and the game's review marks them (mistakes.js).
import { t } from "./strings.js";

const page = document.querySelector("[data-table-page]");
const card = page.querySelector("[data-hints]");
const toggle = card.querySelector("[data-hints-on]");
const ask = card.querySelector("[data-hint-ask]");
const text = card.querySelector("[data-hint-text]");
const ON_KEY = "ttt-hints-on";
const USED_KEY = "ttt-hints-used";
let state = null; // { table, seat, myTurn } of the last render

function stored(key, fallback) {
  try { return JSON.parse(localStorage.getItem(key) ?? "null") ?? fallback; } catch { return fallback; }
}

function store(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch { /* not kept */ }
}

function update() {
  const table = state?.table;
  card.hidden = !table || table.opponent !== "computer" || !["x", "o"].includes(state.seat);
  ask.hidden = !toggle.checked;
  ask.disabled = !state?.myTurn;
  if (!state?.myTurn) text.textContent = "";
}

function remember(table) {
  const used = stored(USED_KEY, {});
  const key = `${page.dataset.tableId}/${table.game}`;
  const ply = table.moves.length + 1; // the move about to be played
  used[key] = [...new Set([...(used[key] ?? []), ply])];
  store(USED_KEY, used);
}

ask.addEventListener("click", async () => {
  const { table } = state;
  text.textContent = t("The computer is looking at the game…");
  try {
    const response = await fetch("/api/hints", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ variant: table.variant, line: table.line, position: table.position }),
    });
    if (!response.ok) throw new Error(String(response.status));
    const hint = await response.json();
    if (state.table.version !== table.version) return; // the game moved on meanwhile
    remember(table);
    page.querySelector(`[data-board] [data-move="${hint.move}"]`)?.classList.add("suggested");
    text.textContent = hint.text; // in the page's language, from the server
  } catch {
    text.textContent = t("The computer's analysis is not available right now.");
  }
});

toggle.checked = stored(ON_KEY, false) === true;
toggle.addEventListener("change", () => {
  store(ON_KEY, toggle.checked);
  update();
});
page.addEventListener("table:render", (event) => {
  state = event.detail;
  update();
});
