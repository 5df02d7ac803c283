// The coach: hints on the dice now (GET /api/advice) for the players who switched them on
// (remembered on this phone), and a finished game's analysis (GET /api/analysis).
import { get } from "./api.js";
import { h, s } from "./dom.js";
import { t } from "./i18n.js";

const KEY = "dicetray.hints";

function stored() {
  try {
    const names = JSON.parse(localStorage.getItem(KEY) || "[]");
    return new Set(Array.isArray(names) ? names : []);
  } catch {
    return new Set();
  }
}

// hints are remembered by player name, so they follow the player from game to game
export function hintsOn(name) {
  return stored().has(name);
}

export function setHints(name, on) {
  const names = stored();
  if (on) names.add(name);
  else names.delete(name);
  try {
    localStorage.setItem(KEY, JSON.stringify([...names]));
  } catch {
    // private mode: the toggle lasts as long as the page
  }
}

let asked = null; // {version, promise, answer}

// while the coach computes its table, ask again this often (ms) to show its progress
const RETRY_MS = 1000;

// the advice for a state's version, asked once however often the page redraws; while the
// coach is computing, asked again until it is ready (``changed`` is told each new answer)
export function adviceFor(version, changed = () => {}) {
  if (!asked || asked.version !== version) {
    const mine = { version, answer: undefined };
    const ask = () => get("/api/advice").catch(() => null).then((answer) => {
      if (asked !== mine) return answer;
      mine.answer = answer;
      if (answer && answer.reason === "computing") {
        setTimeout(() => {
          if (asked === mine) ask().then(() => asked === mine && changed());
        }, RETRY_MS);
      }
      return answer;
    });
    mine.promise = ask();
    asked = mine;
  }
  return asked;
}

// why the coach gives no hint, in the page's language (the server's English as a fallback)
export function reasonText(answer) {
  if (answer.reason === "computing") {
    return t("coach.computing", { percent: Math.floor(100 * (answer.progress || 0)) });
  }
  let key = `coach.reason.${answer.reason}`;
  if (answer.reason === "refused") key = `coach.refused.${answer.refusal}`;
  const text = t(key);
  return t("coach.unavailable", { why: text === key ? answer.why : text });
}

export function coachPanel(advice, boxName) {
  if (!advice.available) {
    const computing = advice.reason === "computing";
    return [h("p", { class: computing ? "hint coach-computing" : "hint" }, reasonText(advice))];
  }
  const best = advice.options[0].expected;
  const rows = advice.options.map((option, i) =>
    h("li", { class: i === 0 ? "best" : "" },
      h("span", { class: "what" }, describe(option, boxName)),
      h("span", { class: "expected" },
        i === 0 ? t("coach.expected", { n: option.expected.toFixed(1) })
          : `−${(best - option.expected).toFixed(1)}`)));
  return [h("p", { class: "coach-title" }, t("coach.title")), h("ol", { class: "coach-options" }, ...rows)];
}

export function describe(option, boxName) {
  if (option.kind === "score") return t("coach.score", { box: boxName(option.box), points: option.points ?? "" });
  return option.dice.length ? t("coach.keep", { dice: option.dice.join(" ") }) : t("coach.reroll");
}

export function analysisOf(game) {
  return get(game === null || game === undefined ? "/api/analysis" : `/api/analysis?game=${game}`);
}

export function analysisPanel(analysis, boxName) {
  const parts = [h("h2", {}, t("analysis.title"))];
  if (!analysis.available) {
    parts.push(h("p", { class: "hint" }, reasonText(analysis)));
    return parts;
  }
  for (const player of analysis.players) {
    const costly = player.costliest.map((d) =>
      h("li", {},
        t("analysis.move", { turn: d.turn, roll: d.roll, dice: d.dice.join(" "),
          chosen: describe(d.chosen, boxName), best: describe(d.best, boxName),
          loss: d.loss.toFixed(1) })));
    parts.push(
      h("div", { class: "analysis-player" },
        h("h3", {}, `${player.name}: ${player.final ?? ""}`),
        h("p", {}, t("analysis.loss", { n: player.total_loss.toFixed(1) })),
        costly.length ? h("ol", { class: "costliest" }, ...costly) : h("p", { class: "hint" }, t("analysis.perfect")),
        chart(player.expected_by_turn)));
  }
  return parts;
}

// the expected final score turn by turn, as a small line chart
function chart(values) {
  const width = 300;
  const height = 90;
  const pad = 6;
  const svg = s("svg", { viewBox: `0 0 ${width} ${height}`, class: "expected-chart", role: "img",
    "aria-label": t("analysis.chart") });
  if (values.length < 2) return svg;
  const low = Math.min(...values);
  const high = Math.max(...values);
  const span = high - low || 1;
  const x = (i) => pad + (i * (width - 2 * pad)) / (values.length - 1);
  const y = (v) => height - pad - ((v - low) * (height - 2 * pad)) / span;
  const points = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  svg.append(
    s("line", { x1: pad, y1: y(values[0]), x2: width - pad, y2: y(values[0]), class: "chart-start" }),
    s("polyline", { points, class: "chart-line" }),
    s("text", { x: pad + 4, y: Math.min(height - 4, y(values[0]) + 14), class: "chart-label" },
      Math.round(values[0])),
    s("text", { x: width - pad, y: Math.max(12, Math.min(height - 10, y(values[values.length - 1]) - 6)),
      "text-anchor": "end", class: "chart-label" },
      Math.round(values[values.length - 1])),
  );
  return svg;
}
