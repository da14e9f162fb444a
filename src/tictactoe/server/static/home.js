// The home page's form: each start button (a friend, the computer, someone now, two on this
// device) creates the table through the JSON API and opens it; "More options" shows only the
// options that apply. Without JavaScript the form still posts to the server.
import { defaultLine } from "./constants.js";
import { numberFormat, t } from "./strings.js";

const form = document.querySelector("[data-create-table]");
const errorBox = form.querySelector("[data-form-error]");
const submit = form.querySelector("[data-start=friend]");

function value(name) {
  const field = form.elements[name];
  return field ? field.value : "";
}

function syncOptions(changed) {
  form.dataset.variant = value("variant");
  // Without scripts there is no data-teams, and the closed-teams box always shows.
  form.dataset.teams = form.elements.teams.checked ? "on" : "off";
  const size = Number(value("size")) || 3;
  const line = form.elements.line;
  for (const option of line.options) option.disabled = Number(option.value) > size;
  if (changed === "size" || Number(line.value) > size) line.value = String(defaultLine[size])  // the rules' default for the size;
  // 3 in a row on 4×4 or 5×5 is a sure win for whoever starts: say so before the table is made.
  form.querySelector("[data-forced-win]").hidden = !(size >= 4 && Number(line.value) === 3);
}

form.addEventListener("change", (event) => syncOptions(event.target.name));
syncOptions(null);

function tableBody(opponent) {
  const body = { variant: value("variant"), opponent, first: value("first") };
  if (body.variant === "standard") {
    body.size = Number(value("size"));
    body.line = Number(value("line"));
  }
  if (body.opponent === "computer") body.level = value("level");
  if (body.opponent === "friend") {
    body.teams = form.elements.teams.checked;
    if (body.teams) body.teams_open = !form.elements.teams_closed.checked;
    body.public = form.elements.public.checked;
  }
  body.takebacks = form.elements.takebacks.checked;
  body.private = form.elements.private.checked;
  const [minutes, increment] = value("clock").split("+").map(Number);
  if (value("clock") !== "none") Object.assign(body, { clock_minutes: minutes, clock_increment: increment });
  return body;
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  errorBox.textContent = "";
  const button = event.submitter ?? submit;
  const quick = button.hasAttribute("data-quick");
  const body = tableBody(quick ? "friend" : button.value || "friend");
  if (quick) Object.assign(body, { opponent: "friend", private: false, public: undefined });
  const label = button.textContent;
  button.disabled = true;
  button.textContent = t("Creating…");
  try {
    const response = await fetch(quick ? "/api/quick" : "/api/tables", {
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
    button.disabled = false;
    button.textContent = label;
  }
});

// ---- the open tables, refreshed while the page is in view ----

const openList = document.querySelector("[data-open-tables]");
const openEmpty = document.querySelector("[data-open-empty]");

// Numbers as the page's language writes them: 0,5 min in most of them.
const number = numberFormat({ maximumFractionDigits: 1 });

function openLabel(open) {
  const parts = [];
  if (open.variant === "ultimate") parts.push(t("Ultimate Tic-Tac-Toe"));
  else parts.push(`${t("Tic-Tac-Toe")} ${open.size}×${open.size}, ${t("{n} in a row", { n: number.format(open.line) })}`);
  parts.push(open.clock_minutes
    ? t("{minutes} min, +{seconds} s per move",
      { minutes: number.format(open.clock_minutes), seconds: number.format(Math.round(open.clock_increment)) })
    : t("No clock"));
  if (open.teams) parts.push(t("Two teams"));
  if (open.takebacks) parts.push(t("Takebacks allowed"));
  return parts.join(" · ");
}

async function refreshOpenTables() {
  if (document.hidden) return;
  try {
    const response = await fetch("/api/tables?open=true", { headers: { Accept: "application/json" } });
    if (!response.ok) return;
    const tables = await response.json();
    openList.replaceChildren(...tables.map((open) => {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = `/t/${encodeURIComponent(open.id)}`;
      link.textContent = openLabel(open);
      item.append(link);
      return item;
    }));
    openEmpty.hidden = tables.length > 0;
  } catch {
    // Offline for a moment: the list stays as it was until the next refresh.
  }
}

if (openList) {
  setInterval(refreshOpenTables, 4000);
  document.addEventListener("visibilitychange", refreshOpenTables);
}
