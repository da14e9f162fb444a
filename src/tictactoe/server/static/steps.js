// The step controls of a game looked back at (the review, the analysis board): the four buttons
// of templates/_step_buttons.html, ←/→ (mirrored on a right-to-left page), Home and End. `ply()`
// and `last()` say where the page is and how far it goes; `go(n)` steps there.
export function stepControls(page, { ply, last, go }) {
  const button = (name) => page.querySelector(`[data-step='${name}']`);
  const buttons = { first: button("first"), previous: button("previous"), next: button("next"), last: button("last") };
  buttons.first.addEventListener("click", () => go(0));
  buttons.previous.addEventListener("click", () => go(ply() - 1));
  buttons.next.addEventListener("click", () => go(ply() + 1));
  buttons.last.addEventListener("click", () => go(last()));
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.closest?.("input, select, textarea")) return;
    // The step buttons run right to left on a right-to-left page: ← then points forward.
    const [back, forward] = document.documentElement.dir === "rtl" ? ["ArrowRight", "ArrowLeft"]
      : ["ArrowLeft", "ArrowRight"];
    const to = { [back]: ply() - 1, [forward]: ply() + 1, Home: 0, End: last() }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    go(to);
  });
  // Which buttons lead anywhere from where the page is now.
  return {
    show() {
      buttons.first.disabled = buttons.previous.disabled = ply() === 0;
      buttons.next.disabled = buttons.last.disabled = ply() === last();
    },
  };
}
