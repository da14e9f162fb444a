// The people at a table beyond the board: your name (offered again at your next table), how many
// watch, the table's code, draws by agreement, and the sounds (played by the page on events).
import { Sounds } from "./sound.js";
import { t } from "./strings.js";
import { aboutOpponent, isOver, isPlayerSeat } from "./table_text.js";

const NAME_KEY = "ttt-name";
const LOW_TIME = 10; // seconds on your clock when the warning sounds

export class Company {
  constructor(page, { send, say }) {
    this.send = send;
    this.say = say;
    this.form = page.querySelector("[data-name-form]");
    this.nameInput = page.querySelector("[data-name]");
    this.nameSide = page.querySelector("[data-name-side]");
    this.watchersEl = page.querySelector("[data-watchers]");
    this.codeEl = page.querySelector("[data-code]");
    this.drawButton = page.querySelector("[data-draw]");
    this.drawSlot = page.querySelector("[data-draw-slot]");
    this.drawPrompt = page.querySelector("[data-draw-prompt]");
    this.sounds = new Sounds(page.querySelector("[data-sound]"));
    this.lowWarned = null;
    this.form?.addEventListener("submit", (event) => {
      event.preventDefault();
      const name = this.nameInput.value.trim();
      if (!name) return;
      const message = { type: "name", name };
      if (this.table?.opponent === "here") message.side = this.nameSide.value;
      if (this.send(message)) localStorage.setItem(NAME_KEY, name);
    });
    this.drawButton?.addEventListener("click", () => this.send({ type: "draw" }));
    page.querySelector("[data-draw-accept]")?.addEventListener("click", () => this.send({ type: "draw" }));
    page.querySelector("[data-draw-decline]")?.addEventListener("click", () => this.send({ type: "decline-draw" }));
  }

  render(tbl, seat) {
    this.table = tbl;
    const player = isPlayerSeat(seat);
    const here = tbl.opponent === "here";
    if (this.form) {
      this.form.hidden = !player;
      this.nameSide.hidden = !here;
      const mine = tbl.seats?.[here ? this.nameSide.value : seat]?.name;
      if (document.activeElement !== this.nameInput && player && !this.nameInput.value) {
        // Offered again: the name this browser used last, until this seat has one of its own.
        this.nameInput.value = mine ?? localStorage.getItem(NAME_KEY) ?? "";
      }
    }
    if (this.watchersEl) this.watchersEl.textContent = String(tbl.watchers ?? 0);
    if (this.codeEl && tbl.code) this.codeEl.textContent = tbl.code;
    this.renderDraw(tbl, seat);
  }

  renderDraw(tbl, seat) {
    if (!this.drawButton) return;
    const player = isPlayerSeat(seat);
    const seated = tbl.seats?.x?.taken && tbl.seats?.o?.taken;
    // No draw offers to the computer: it plays on, as a person would be asked to.
    const live = player && seated && !isOver(tbl) && tbl.moves.length > 0 && tbl.opponent !== "computer";
    this.drawSlot.hidden = !live;
    const offer = tbl.draw_offer;
    const mineOffered = offer === seat && tbl.opponent !== "here";
    this.drawButton.disabled = mineOffered;
    this.drawButton.textContent = offer && offer !== seat ? t("Accept the draw") : t("Offer a draw");
    if (this.drawPrompt) {
      this.drawPrompt.hidden = !(live && offer && offer !== seat && tbl.opponent !== "here");
      this.drawPrompt.querySelector("p").textContent = aboutOpponent(tbl, seat, "Your opponent offers a draw.", "{name} offers a draw.");
    }
    this.drawButton.classList.toggle("primary", Boolean(offer) && offer !== seat);
  }

  // Called by the clocks as they count down: one warning per game when your time runs low.
  clockTick(tbl, seat, secondsLeft) {
    const key = `${tbl.game}:${seat}`;
    if (!isPlayerSeat(seat) || secondsLeft > LOW_TIME || this.lowWarned === key || isOver(tbl)) return;
    if (tbl.clock?.running !== seat) return;
    this.lowWarned = key;
    this.sounds.play("low");
  }
}
