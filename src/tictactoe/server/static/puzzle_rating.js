// The solver's puzzle rating and the puzzles tried, kept in this browser (localStorage): no
// account. Only the first try at a puzzle is rated.
import { START, rate } from "./glicko.js";

const KEY = "ttt-puzzles";
const KEEP_TRIED = 300;

export function load() {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) ?? "null");
    if (saved && Number.isFinite(saved.rating)) return { tried: [], ...saved };
  } catch { /* a damaged or blocked store: start afresh */ }
  return { ...START, tried: [] };
}

function save(state) {
  try { localStorage.setItem(KEY, JSON.stringify(state)); } catch { /* private mode: not kept */ }
}

// Records the first try at `id` (solved or not) and returns the change of rating (0 if tried).
export function record(id, puzzleRating, solved) {
  const state = load();
  if (state.tried.includes(id)) return 0;
  const next = rate(state, puzzleRating, solved ? 1 : 0);
  const change = Math.round(next.rating) - Math.round(state.rating);
  save({ ...next, tried: [...state.tried, id].slice(-KEEP_TRIED) });
  return change;
}

// The address of a next puzzle near the rating, leaving out the ones tried lately.
export async function nextPuzzleUrl() {
  const state = load();
  const query = new URLSearchParams({ rating: String(Math.round(state.rating)), exclude: state.tried.slice(-60).join(",") });
  const response = await fetch(`/api/puzzles/next?${query}`);
  if (!response.ok) throw new Error(String(response.status));
  return `/puzzles/${(await response.json()).id}`;
}
