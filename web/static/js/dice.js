// Drawn dice: an SVG die face for a value (blank for null), pips on a 3x3 grid.
import { s } from "./dom.js";

const PIPS = {
  1: [[1, 1]],
  2: [[0, 0], [2, 2]],
  3: [[0, 0], [1, 1], [2, 2]],
  4: [[0, 0], [2, 0], [0, 2], [2, 2]],
  5: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]],
  6: [[0, 0], [2, 0], [0, 1], [2, 1], [0, 2], [2, 2]],
};

export function dieFace(value) {
  const svg = s("svg", { viewBox: "0 0 60 60", class: "die-face", "aria-hidden": "true" });
  svg.append(s("rect", { x: 3, y: 3, width: 54, height: 54, rx: 11, class: "die-body" }));
  if (PIPS[value]) {
    for (const [col, row] of PIPS[value]) {
      svg.append(s("circle", { cx: 16 + col * 14, cy: 16 + row * 14, r: 5.2, class: "pip" }));
    }
  } else if (value !== null && value !== undefined) {
    svg.append(s("text", { x: 30, y: 39, "text-anchor": "middle", class: "die-number" }, value));
  } else {
    svg.append(s("text", { x: 30, y: 40, "text-anchor": "middle", class: "die-unknown" }, "?"));
  }
  return svg;
}
