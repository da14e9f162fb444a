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
