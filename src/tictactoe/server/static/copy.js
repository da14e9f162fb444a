// Copies `text` and says so on `button` for a moment.
export async function copyText(button, text, done) {
  const label = button.textContent;
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = done;
  } catch {
    return;
  }
  setTimeout(() => { button.textContent = label; }, 1500);
}

// Every `[data-copy-from=ID]` button of `page` copies the value of the field #ID.
export function copyButtons(page, done) {
  for (const button of page.querySelectorAll("[data-copy-from]")) {
    const source = page.querySelector(`#${button.dataset.copyFrom}`);
    button.addEventListener("click", () => copyText(button, source.value, done));
  }
}
