// Hints at a table against the computer: off until the player ticks the box (the choice is kept
// in this browser); then, on the player's turn, "Show a hint" rings the computer's move and says
// why (/api/hints). The plies that had a hint are kept in this browser ("ttt-hints-used") and the
// game's review marks them (mistakes.js).
import { t } from "./strings.js";

const page = document.querySelector("[data-table-page]");
const card = page.querySelector("[data-hints]");
const toggle = card.querySelector("[data-hints-on]");
const ask = card.querySelector("[data-hint-ask]");
const text = card.querySelector("[data-hint-text]");
const ON_KEY = "ttt-hints-on";
const USED_KEY = "ttt-hints-used";
let state = null; // { table, seat, myTurn } of the last render

const REASONS = {
  "wins-game": () => t("It wins the game."),
  "wins-board": () => t("It wins a small board."),
  blocks: () => t("It blocks your opponent's line."),
  "safe-send": () => t("It sends your opponent to a board where they cannot win at once."),
  "free-choice": () => t("It sends your opponent to a closed board, so they may play anywhere."),
};

function stored(key, fallback) {
  try { return JSON.parse(localStorage.getItem(key) ?? "null") ?? fallback; } catch { return fallback; }
}

function store(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch { /* not kept */ }
}

function outlook(hint, mark) {
  if (hint.proven === mark) return t("With it you win by force.");
  if (hint.proven === "draw") return t("With best play the game is a draw.");
  if (hint.proven) return t("Against the computer's best play the game is lost; this move makes it hardest.");
  const score = mark === "x" ? hint.score : -hint.score;
  if (score > 0.25) return t("The computer thinks you are ahead.");
  if (score < -0.25) return t("The computer thinks you are behind.");
  return t("The computer thinks the game is even.");
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
  const { table, seat } = state;
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
    const why = hint.reasons.map((reason) => REASONS[reason]?.()).filter(Boolean);
    text.textContent = [t("The computer's move: {cell}.", { cell: hint.move }), ...why, outlook(hint, seat)].join(" ");
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
