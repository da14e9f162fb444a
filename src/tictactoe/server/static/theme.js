// Light or dark: the system's choice until the visitor flips the header's switch, which the
// browser remembers. A plain script in <head>, so the page is painted in the right colours.
(function () {
  var KEY = "ttt-theme";
  var root = document.documentElement;
  var saved = null;
  try { saved = localStorage.getItem(KEY); } catch (error) { /* storage off: follow the system */ }
  if (saved === "light" || saved === "dark") root.dataset.theme = saved;
  var systemDark = window.matchMedia("(prefers-color-scheme: dark)");
  function isDark() {
    return root.dataset.theme ? root.dataset.theme === "dark" : systemDark.matches;
  }
  document.addEventListener("DOMContentLoaded", function () {
    var button = document.querySelector("[data-theme-toggle]");
    if (!button) return;
    function show() { button.setAttribute("aria-pressed", String(isDark())); }
    button.hidden = false;
    show();
    systemDark.addEventListener("change", show);
    button.addEventListener("click", function () {
      root.dataset.theme = isDark() ? "light" : "dark";
      try { localStorage.setItem(KEY, root.dataset.theme); } catch (error) { /* kept for this page */ }
      show();
    });
  });
})();
