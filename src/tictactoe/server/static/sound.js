// Short sounds made with Web Audio (no files to load): the opponent's move, your turn, low time
// on your clock and the end of a game. Nothing plays before the visitor has touched the page (the
// browser's rule, and ours), and a switch mutes them, remembered by the browser.
const KEY = "ttt-sound";
const TUNES = {
  move: [[660, 0.07]],
  turn: [[520, 0.06], [780, 0.09]],
  low: [[880, 0.05], [0, 0.05], [880, 0.05]],
  end: [[523, 0.1], [659, 0.1], [784, 0.18]],
};

export class Sounds {
  constructor(toggle) {
    this.toggle = toggle;
    this.context = null;
    this.touched = false;
    const unlock = () => {
      this.touched = true;
      window.removeEventListener("pointerdown", unlock);
      window.removeEventListener("keydown", unlock);
    };
    window.addEventListener("pointerdown", unlock);
    window.addEventListener("keydown", unlock);
    if (toggle) {
      toggle.hidden = false;
      toggle.addEventListener("click", () => {
        localStorage.setItem(KEY, this.muted ? "on" : "off");
        this.show();
      });
      this.show();
    }
  }

  get muted() {
    return localStorage.getItem(KEY) === "off";
  }

  show() {
    if (!this.toggle) return;
    this.toggle.setAttribute("aria-pressed", String(!this.muted));
    this.toggle.dataset.state = this.muted ? "off" : "on";
  }

  play(kind) {
    if (this.muted || !this.touched || !TUNES[kind] || typeof AudioContext === "undefined") return;
    this.context ??= new AudioContext();
    let at = this.context.currentTime + 0.01;
    for (const [frequency, seconds] of TUNES[kind]) {
      if (frequency) this.beep(frequency, at, seconds);
      at += seconds;
    }
  }

  beep(frequency, at, seconds) {
    const tone = this.context.createOscillator();
    const gain = this.context.createGain();
    tone.type = "sine";
    tone.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.2, at + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + seconds);
    tone.connect(gain).connect(this.context.destination);
    tone.start(at);
    tone.stop(at + seconds + 0.02);
  }
}
