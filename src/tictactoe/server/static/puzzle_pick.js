// `/puzzles`: goes on to a puzzle near the rating kept in this browser.
import { nextPuzzleUrl } from "./puzzle_rating.js";
import { t } from "./strings.js";

nextPuzzleUrl()
  .then((url) => location.replace(url))
  .catch(() => {
    document.querySelector("[data-puzzle-feedback]").textContent = t("Something went wrong. Please try again.");
  });
