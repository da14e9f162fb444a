// The table page's buttons: take the seat, resign (pressed twice), rematch, claim the win, ask for
// and answer a takeback, quick reactions, and the link to share.
import { other, upper } from "./board.js";
import { t } from "./strings.js";
import { aboutOpponent, errorText, freeSeat, isOver, isPlayerSeat, nameOf } from "./table_text.js";

const hasMyMove = (tbl, seat) => tbl.moves.length >= (tbl.turn === seat ? 2 : 1);

export class Actions {
  // `send(message)` sends a command; `say(text)` shows an error; `announce(text)` speaks.
  constructor(page, { tableId, send, say, announce }) {
    const $ = (selector) => page.querySelector(selector);
    this.els = {
      join: $("[data-join]"), rematch: $("[data-rematch]"), claim: $("[data-claim]"), resign: $("[data-resign]"),
      shareCard: $("[data-share-card]"), shareLink: $("[data-share-link]"), reactions: $("[data-reactions]"),
      reactionShown: $("[data-reaction-shown]"), takeback: $("[data-takeback]"), takebackPrompt: $("[data-takeback-prompt]"),
      review: $("[data-review-link]"), countdown: $("[data-claim-countdown]"), layout: $(".table-layout"),
      shareLater: $("[data-share-later]"), boardWrap: $("[data-board-wrap]"),
      looking: $("[data-looking]"), invite: $("[data-invite]"), cancel: $("[data-cancel]"),
    };
    this.tableId = tableId;
    this.claimAfter = Number(page.dataset.claimAfter) || 60;
    this.away = null; // {key, at}: since when this page has seen the opponent away on their turn
    this.latest = null;
    setInterval(() => this.renderCountdown(), 500);
    const { els } = this;
    this.resignArmed = null;
    els.resign.addEventListener("click", () => {
      if (this.resignArmed) {
        this.disarmResign();
        send({ type: "resign" });
        return;
      }
      els.resign.textContent = t("Really resign? Press again");
      this.resignArmed = setTimeout(() => this.disarmResign(), 5000);
    });
    els.rematch.addEventListener("click", () => send({ type: "rematch" }));
    els.claim.addEventListener("click", () => send({ type: "claim" }));
    els.takeback.addEventListener("click", () => send({ type: "takeback" }));
    $("[data-takeback-accept]").addEventListener("click", () => send({ type: "accept-takeback" }));
    $("[data-takeback-decline]").addEventListener("click", () => send({ type: "decline-takeback" }));
    els.reactions.addEventListener("click", (event) => {
      const button = event.target.closest("button[data-reaction]");
      if (button) send({ type: "react", reaction: button.dataset.reaction });
    });
    els.join.addEventListener("click", () => this.join(tableId, send, say));
    // Cancel leaves the queue on the server first (nobody is paired with the table any more),
    // then goes home once the table says so. Offline, the link just goes home: a table whose
    // creator is away is offered to nobody anyway.
    this.leaving = false;
    els.cancel.addEventListener("click", (event) => {
      if (this.leaving || !send({ type: "stop-waiting" })) return;
      event.preventDefault();
      this.leaving = true;
      els.cancel.setAttribute("aria-disabled", "true");
    });
    this.wireShare($("[data-copy]"), $("[data-share]"), announce);
    this.reactionTimer = null;
  }

  disarmResign() {
    clearTimeout(this.resignArmed);
    this.resignArmed = null;
    this.els.resign.textContent = t("Resign");
  }

  render(tbl, seat, connected, canClaim) {
    const { els } = this;
    const over = isOver(tbl);
    const player = isPlayerSeat(seat);
    const free = freeSeat(tbl);
    const teamsOpen = tbl.teams && !over;
    els.join.hidden = !(seat === "spectator" && (free || teamsOpen) && tbl.opponent !== "computer");
    els.join.textContent = tbl.teams && !free ? t("Join a team") : t("Take the free seat");
    els.resign.hidden = !(player && !over && !free);
    els.rematch.hidden = !(player && over);
    els.review.hidden = !over;
    els.review.href = `/t/${encodeURIComponent(this.tableId)}/games/${tbl.game}`;
    if (over && player) {
      const asked = tbl.rematch ?? {};
      els.rematch.disabled = Boolean(asked[seat]);
      els.rematch.textContent = asked[seat] ? t("Rematch asked: waiting for your opponent")
        : asked[other(seat)] ? t("Accept the rematch") : t("Rematch");
    }
    // The link comes first while the friend's seat is free; then it moves beside the players.
    const waiting = player && free && tbl.opponent !== "computer" && !over;
    els.shareCard.hidden = !player || tbl.opponent === "computer" || tbl.opponent === "here";
    // While waiting it lies over the board (nobody can play yet), so the board does not jump
    // when the friend arrives and the card goes.
    if (waiting && els.shareCard.parentElement !== els.boardWrap) els.boardWrap.append(els.shareCard);
    if (!waiting && els.shareCard.nextElementSibling !== els.shareLater) els.shareLater.before(els.shareCard);
    els.shareCard.classList.toggle("over-board", waiting);
    // An open table (Play someone now, or listed for anyone): nobody to send a link to; say that
    // a stranger is being looked for, with a way out.
    if (this.leaving && (!waiting || !tbl.public)) {
      this.leaving = false;
      els.cancel.removeAttribute("aria-disabled");
      // Off the list: home. Paired meanwhile (the seat was taken first): the game is on.
      if (waiting) window.location.assign(els.cancel.href);
    }
    const looking = waiting && Boolean(tbl.public);
    els.looking.hidden = !looking;
    els.invite.hidden = looking;
    els.reactions.hidden = !player || tbl.opponent === "computer" || tbl.opponent === "here";
    for (const button of els.reactions.querySelectorAll("button")) button.disabled = !connected;
    const open = tbl.takebacks && player && !over;
    const asked = tbl.takeback_asked_by;
    els.takeback.hidden = !open || asked === other(seat);
    els.takebackPrompt.hidden = !open || asked !== other(seat);
    els.takebackPrompt.querySelector("p").textContent = aboutOpponent(tbl, seat,
      "Your opponent asks to take back their last move.", "{name} asks to take back their last move.");
    els.takeback.disabled = !connected || asked === seat || !hasMyMove(tbl, seat);
    const label = asked === seat ? t("Takeback asked: waiting for your opponent") : t("Ask to take back your move");
    els.takeback.title = label;
    els.takeback.setAttribute("aria-label", label);
    if (tbl.url && els.shareLink.value !== tbl.url) els.shareLink.value = tbl.url;
    this.trackAway(tbl, seat, player && !over);
    this.latest = { tbl, player, over, canClaim };
    this.renderCountdown();
  }

  // The server offers the claim once the opponent has been away on their turn for `claimAfter`
  // seconds; this page counts down from when it saw them go (or the turn start, if later).
  trackAway(tbl, seat, playing) {
    const mover = tbl.seats?.[tbl.turn] ?? {};
    const away = playing && tbl.turn === other(seat) && mover.taken && !mover.computer && !mover.connected
      && !tbl.teams;
    const key = `${tbl.game}:${tbl.moves.length}`;
    if (!away) this.away = null;
    else if (this.away?.key !== key) this.away = { key, at: performance.now() };
  }

  renderCountdown() {
    const { els } = this;
    const { tbl, player, over, canClaim } = this.latest ?? {};
    const claimable = Boolean(tbl && player && !over && canClaim);
    els.claim.hidden = !claimable;
    els.countdown.hidden = !claimable && !this.away;
    // "Disconnected", not "left": most often it is a network blip, and they may well be back.
    if (claimable) els.countdown.textContent = t("Your opponent is disconnected. You can claim the win now.");
    else if (this.away) {
      const left = Math.max(1, Math.ceil(this.claimAfter - (performance.now() - this.away.at) / 1000));
      els.countdown.textContent = t("Your opponent is disconnected. You can claim the win in {seconds} s.", { seconds: left });
    }
  }

  showReaction({ reaction, side }) {
    const { reactionShown } = this.els;
    // The reactions are the server's buttons (their emoji and words in the page's language).
    const button = [...this.els.reactions.querySelectorAll("button[data-reaction]")]
      .find((candidate) => candidate.dataset.reaction === reaction);
    if (!button) return;
    const table = this.latest?.tbl;
    const label = (table && nameOf(table, side)) ?? upper(side);
    reactionShown.textContent = t("{label}: {text}", { label, text: button.textContent.trim() });
    reactionShown.dataset.reaction = reaction;
    clearTimeout(this.reactionTimer);
    this.reactionTimer = setTimeout(() => {
      reactionShown.textContent = "";
      reactionShown.dataset.reaction = "";
    }, 5000);
  }

  async join(tableId, send, say) {
    const { join } = this.els;
    join.disabled = true;
    try {
      const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/seats`, {
        method: "POST",
        credentials: "same-origin",
        headers: { Accept: "application/json" },
      });
      if (response.ok) {
        const { token } = await response.json();
        // The socket plays the seat from now on, and the server's next frame names it. A team
        // member's place in their side is drawn by the page itself: a fresh load renders it.
        if (this.latest?.tbl?.teams || !send({ type: "auth", token })) location.reload();
        else join.hidden = true;
        return;
      }
      const refusal = await response.json().catch(() => ({}));
      say(errorText(refusal.reason));
    } catch {
      say(t("Something went wrong. Please try again."));
    }
    join.disabled = false;
  }

  wireShare(copyButton, shareButton, announce) {
    const { shareLink } = this.els;
    copyButton.addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(shareLink.value);
      } catch {
        shareLink.select();
        document.execCommand("copy");
      }
      copyButton.textContent = t("Link copied");
      announce(t("Link copied"));
      setTimeout(() => {
        copyButton.textContent = t("Copy link");
      }, 2500);
    });
    if (navigator.share) {
      shareButton.hidden = false;
      shareButton.addEventListener("click", () => {
        navigator.share({ title: document.title, url: shareLink.value }).catch(() => {});
      });
    }
  }
}
