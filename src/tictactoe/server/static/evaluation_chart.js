// The computer's evaluation after every move as an inline SVG line: X's advantage up, O's down,
// the biggest swings ringed, the step being shown marked. No library: a polyline and a few circles.
const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 600;
const HEIGHT = 160;
const PAD = 8;

function node(name, attributes, parent) {
  const el = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) el.setAttribute(key, String(value));
  parent?.append(el);
  return el;
}

export class EvaluationChart {
  // `onPick(ply)` is called when a point of the chart is clicked.
  constructor(container, { label, onPick }) {
    this.svg = node("svg", {
      viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: "evaluation-chart", role: "img", "aria-label": label,
      preserveAspectRatio: "none", "data-chart": "",
    }, container);
    this.onPick = onPick;
    this.count = 0;
    this.svg.addEventListener("click", (event) => {
      if (this.count < 2) return;
      const box = this.svg.getBoundingClientRect();
      const ratio = (event.clientX - box.left) / box.width;
      const ply = Math.round(((ratio * WIDTH - PAD) / (WIDTH - 2 * PAD)) * (this.count - 1));
      this.onPick(Math.max(0, Math.min(this.count - 1, ply)));
    });
  }

  x(ply) { return PAD + (ply * (WIDTH - 2 * PAD)) / Math.max(1, this.count - 1); }

  y(score) { return HEIGHT / 2 - score * (HEIGHT / 2 - PAD); }

  draw(evaluations, swings) {
    this.count = evaluations.length;
    this.svg.replaceChildren();
    node("rect", { x: 0, y: 0, width: WIDTH, height: HEIGHT / 2, class: "chart-x" }, this.svg);
    node("rect", { x: 0, y: HEIGHT / 2, width: WIDTH, height: HEIGHT / 2, class: "chart-o" }, this.svg);
    node("line", { x1: 0, x2: WIDTH, y1: HEIGHT / 2, y2: HEIGHT / 2, class: "chart-axis" }, this.svg);
    const points = evaluations.map((e) => `${this.x(e.ply)},${this.y(e.score)}`).join(" ");
    node("polyline", { points, class: "chart-line" }, this.svg);
    for (const ply of swings) {
      const e = evaluations[ply];
      // A short upright bar: the chart is stretched to its box, so a circle would not stay round.
      node("line", {
        x1: this.x(ply), x2: this.x(ply), y1: this.y(e.score) - 12, y2: this.y(e.score) + 12,
        class: "chart-swing", "data-swing": ply,
      }, this.svg);
    }
    this.cursor = node("line", { y1: 0, y2: HEIGHT, class: "chart-cursor" }, this.svg);
  }

  show(ply) {
    if (!this.cursor) return;
    this.cursor.setAttribute("x1", String(this.x(ply)));
    this.cursor.setAttribute("x2", String(this.x(ply)));
  }
}
