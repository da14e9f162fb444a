// The players card: who sits where (and who is online), the score, team members and the clocks,
// counted down here between the server's frames.
import { numberFormat, t } from "./strings.js";
import { isOver, isPlayerSeat } from "./table_text.js";

// The computer's levels' labels in the page's language, by level name (templates/_levels.html).
const levelBlob = document.getElementById("level-labels");
const levelLabels = levelBlob ? JSON.parse(levelBlob.textContent) : {};

export function renderPlayers(page, tbl, seat, myMember) {
  // Two people at one device: both sides are "you", so each is named by its mark.
  if (tbl.opponent === "here") seat = "spectator";
  for (const mark of ["x", "o"]) {
    const row = page.querySelector(`[data-player="${mark}"]`);
    const info = tbl.seats?.[mark] ?? {};
    let name = t("Player {mark}", { mark: mark.toUpperCase() });
    if (info.name) name = mark === seat ? t("{name} (you)", { name: info.name }) : info.name;
    else if (tbl.teams) name = t("Team");
    else if (info.computer) name = tbl.level in levelLabels ? t("Computer · {level}", { level: levelLabels[tbl.level] }) : t("Computer");
    else if (!info.taken) name = t("Free seat");
    else if (mark === seat) name = t("You");
    else if (isPlayerSeat(seat)) name = t("Your opponent");
    row.querySelector("[data-player-name]").textContent = name;
    const presence = row.querySelector("[data-presence]");
    const shown = info.taken && !info.computer;
    presence.textContent = shown ? (info.connected ? t("online") : t("offline")) : "";
    presence.dataset.state = shown ? (info.connected ? "online" : "offline") : "";
    row.querySelector("[data-wins]").textContent = String(tbl.score?.[mark] ?? 0);
    const members = tbl.teams ? info.members ?? [] : null;
    renderMembers(row.querySelector("[data-members]"), members, mark === seat ? myMember : null);
    row.classList.toggle("to-move", !isOver(tbl) && tbl.turn === mark);
  }
  page.querySelector("[data-draws]").textContent = String(tbl.score?.draws ?? 0);
  page.querySelector("[data-game-number]").textContent = tbl.game > 1 ? `· ${t("Game {n}", { n: tbl.game })}` : "";
}

// The strips right above and below the board: the opponent above, you below (X below for a
// spectator and at one device), each with their name, "(you)" by yours, and their clock.
export function renderStrips(page, tbl, seat) {
  const here = tbl.opponent === "here";
  const mine = isPlayerSeat(seat) && !here ? seat : null;
  page.querySelector("[data-board-column]").dataset.bottom = mine ?? "x";
  for (const mark of ["x", "o"]) {
    const strip = page.querySelector(`[data-strip="${mark}"]`);
    const name = page.querySelector(`[data-player="${mark}"] [data-player-name]`).textContent;
    const info = tbl.seats?.[mark] ?? {};
    strip.querySelector("[data-strip-name]").textContent = name;
    const presence = strip.querySelector("[data-strip-presence]");
    const shown = info.taken && !info.computer;
    presence.dataset.state = shown ? (info.connected ? "online" : "offline") : "";
    presence.title = shown ? (info.connected ? t("online") : t("offline")) : "";
    strip.classList.toggle("to-move", !isOver(tbl) && tbl.turn === mark);
  }
}

function renderMembers(list, members, mine) {
  list.hidden = !members?.length;
  if (!members) return;
  list.replaceChildren(...members.map((member, i) => {
    const item = document.createElement("li");
    const state = member.connected ? "online" : "offline";
    item.textContent = i === mine ? t("You") : t("Player {n}", { n: i + 1 });
    const presence = document.createElement("span");
    presence.className = "presence";
    presence.dataset.state = state;
    presence.textContent = ` ${t(state)}`;
    item.append(presence);
    return item;
  }));
}

// Tenths under ten seconds, with the page language's decimal sign (0:09,5 in most of them).
const tenths = numberFormat({ minimumIntegerDigits: 2, minimumFractionDigits: 1, maximumFractionDigits: 1 });

function formatTime(seconds) {
  const s = Math.max(0, seconds);
  if (s < 10) return `0:${tenths.format(Math.floor(s * 10) / 10)}`;
  const whole = Math.ceil(s);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

// The clocks: the server's times when the latest frame came, run down for the side to move.
export class Clocks {
  constructor(page, onTick = () => {}) {
    this.onTick = onTick;
    this.els = { x: page.querySelector("[data-clock='x']"), o: page.querySelector("[data-clock='o']") };
    this.clock = null;
    this.at = 0;
    setInterval(() => this.render(), 200);
  }

  set(clock) {
    this.clock = clock ?? null;
    this.at = performance.now();
    this.render();
  }

  render() {
    const { clock } = this;
    for (const mark of ["x", "o"]) {
      const el = this.els[mark];
      el.hidden = !clock;
      if (!clock) continue;
      const running = clock.running === mark;
      const left = clock[mark] - (running ? (performance.now() - this.at) / 1000 : 0);
      el.textContent = formatTime(left);
      el.dataset.running = running ? "true" : "";
      el.classList.toggle("low", left < 10);
      if (running) this.onTick(mark, left);
    }
  }
}
