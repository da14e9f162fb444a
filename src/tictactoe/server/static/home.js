// The home page's form: shows only the options that apply, then creates the table through the
// JSON API and opens it. Without JavaScript the form still posts to the server.
import { t } from "./strings.js";

const form = document.querySelector("[data-create-table]");
const errorBox = form.querySelector("[data-form-error]");
const submit = form.querySelector("button[type=submit]");

// Defaults of CONTRACT.md: 3×3 needs 3 in a row, 4×4 and 5×5 need 4.
const DEFAULT_LINE = { 3: 3, 4: 4, 5: 4 };

function value(name) {
  const field = form.elements[name];
  return field ? field.value : "";
}

function syncOptions(changed) {
  form.dataset.variant = value("variant");
  form.dataset.opponent = value("opponent");
  const size = Number(value("size")) || 3;
  const line = form.elements.line;
  for (const option of line.options) option.disabled = Number(option.value) > size;
  if (changed === "size" || Number(line.value) > size) line.value = String(DEFAULT_LINE[size]);
  // 3 in a row on 4×4 or 5×5 is a sure win for whoever starts: say so before the table is made.
  form.querySelector("[data-forced-win]").hidden = !(size >= 4 && Number(line.value) === 3);
}

form.addEventListener("change", (event) => syncOptions(event.target.name));
syncOptions(null);

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  errorBox.textContent = "";
  const body = { variant: value("variant"), opponent: value("opponent"), first: value("first") };
  if (body.variant === "standard") {
    body.size = Number(value("size"));
    body.line = Number(value("line"));
  }
  if (body.opponent === "computer") body.level = value("level");
  else body.teams = form.elements.teams.checked;
  body.takebacks = form.elements.takebacks.checked;
  body.private = form.elements.private.checked;
  const [minutes, increment] = value("clock").split("+").map(Number);
  if (value("clock") !== "none") Object.assign(body, { clock_minutes: minutes, clock_increment: increment });
  const label = submit.textContent;
  submit.disabled = true;
  submit.textContent = t("Creating…");
  try {
    const response = await fetch("/api/tables", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body),
      credentials: "same-origin",
    });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const table = await response.json();
    window.location.assign(table.url);
  } catch {
    errorBox.textContent = t("Could not create the table. Please try again.");
    submit.disabled = false;
    submit.textContent = label;
  }
});
