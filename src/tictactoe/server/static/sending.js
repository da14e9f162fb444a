// The rules page's picture of the sending rule: the cell picked in a small board lights up the
// small board in the same place of the big board. The sentences come translated in the HTML.
const root = document.querySelector("[data-sending]");
const result = document.querySelector("[data-sending-result]");

if (root && result) {
  const picks = [...root.querySelectorAll("button[data-position]")];
  const targets = [...root.querySelectorAll("[data-board-position]")];
  const choose = (index) => {
    picks.forEach((button, i) => {
      button.setAttribute("aria-pressed", String(i === index));
      button.textContent = i === index ? "X" : "";
    });
    // The small board framed as the board to play in, as on a real table.
    targets.forEach((board, i) => board.classList.toggle("to", i === index));
    result.textContent = picks[index].dataset.result;
  };
  picks.forEach((button, i) => button.addEventListener("click", () => choose(i)));
  choose(2); // Start with a move picked, so the picture shows the rule before anyone touches it.
  // Arrow keys move around the little grid, as on the game board.
  root.addEventListener("keydown", (event) => {
    const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -3, ArrowDown: 3 };
    const from = picks.indexOf(document.activeElement);
    if (from < 0 || !(event.key in moves)) return;
    const to = from + moves[event.key];
    const sameRow = Math.floor(to / 3) === Math.floor(from / 3);
    if (to < 0 || to > 8 || (Math.abs(moves[event.key]) === 1 && !sameRow)) return;
    event.preventDefault();
    picks[to].focus();
  });
}
