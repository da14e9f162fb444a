// The keyboard on a board one plays at: one cell in the tab order (a roving tab stop), arrow keys
// move over the playable cells, and the board's focus comes back to a playable cell when it is
// the player's turn again.
const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

// Whether the player last used the keyboard (not a finger or a mouse): only then does focus follow
// the game and show previews, so a tap does not light up a board nobody pointed at.
export const input = { keyboard: false };
document.addEventListener("keydown", () => { input.keyboard = true; }, true);
document.addEventListener("pointerdown", () => { input.keyboard = false; }, true);

export class RovingFocus {
  // `preferred()` is the cell to start from: in Ultimate, one in the board the player is sent to.
  constructor(board, preferred) {
    this.board = board;
    this.preferred = preferred;
    this.name = null; // the cell in the tab order
    this.wanted = false; // the player is at the board with the keyboard
    const el = board.el;
    el.addEventListener("keydown", (event) => {
      const direction = ARROWS[event.key];
      if (!direction) return;
      event.preventDefault();
      const from = event.target.closest?.("button[data-move]") ?? board.cells.get(this.name);
      if (from) this.focus(this.step(from, direction) ?? (from.disabled ? null : from));
    });
    el.addEventListener("focusin", () => { this.wanted = input.keyboard; });
    el.addEventListener("focusout", (event) => {
      if (event.relatedTarget && !el.contains(event.relatedTarget)) this.wanted = false;
    });
  }

  enabled() {
    return [...this.board.cells.values()].filter((button) => !button.disabled);
  }

  // After a render: keep the tab stop on a playable cell, and bring focus back to one.
  update() {
    let target = this.board.cells.get(this.name);
    if (!target || target.disabled) target = this.preferred(this.enabled());
    for (const button of this.board.cells.values()) button.tabIndex = -1;
    if (!target) return;
    target.tabIndex = 0;
    this.name = target.dataset.move;
    if (this.wanted && input.keyboard && document.activeElement === this.board.el) target.focus({ preventScroll: true });
  }

  focus(button) {
    if (!button) return;
    for (const b of this.board.cells.values()) b.tabIndex = -1;
    button.tabIndex = 0;
    this.name = button.dataset.move;
    button.focus();
  }

  // The nearest playable cell in the arrow's direction, staying in the same row or column if it can.
  step(from, [dr, dc]) {
    const r0 = Number(from.dataset.row);
    const c0 = Number(from.dataset.col);
    let best = null;
    let bestScore = Infinity;
    for (const button of this.enabled()) {
      const r = Number(button.dataset.row) - r0;
      const c = Number(button.dataset.col) - c0;
      const along = dr ? r * dr : c * dc;
      if (along <= 0) continue;
      const score = (dr ? Math.abs(c) : Math.abs(r)) * 100 + along;
      if (score < bestScore) [best, bestScore] = [button, score];
    }
    return best;
  }
}
