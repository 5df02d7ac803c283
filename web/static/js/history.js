// Past games, high scores and the dice's faces (with a chi-square test of fairness), from
// GET /api/history and GET /api/stats. A tray without those endpoints says so.
import { ApiError, get } from "./api.js";
import { $, frame, h, s } from "./dom.js";
import { t } from "./i18n.js";

let history = null;
let stats = null;
let missing = { history: false, stats: false };

async function load(path, key) {
  try {
    return await get(path);
  } catch (error) {
    missing[key] = error instanceof ApiError ? error.status : "network";
    return null;
  }
}

function unavailable(key) {
  const text = missing[key] === 404 ? `${key}.not_yet` : "error.network";
  return h("p", { class: "hint unavailable" }, t(text));
}

function when(seconds) {
  return seconds ? new Date(seconds * 1000).toLocaleString(document.documentElement.lang) : "";
}

function drawHistory() {
  const games = history && Array.isArray(history.games) ? history.games : null;
  if (!games) {
    $("#games-list").replaceChildren(unavailable("history"));
    $("#high-panel").hidden = true;
    return;
  }
  $("#high-panel").hidden = false;
  $("#games-list").replaceChildren(
    games.length === 0
      ? h("p", { class: "hint" }, t("history.none"))
      : h("ul", { class: "games" }, ...games.map((game) => {
          const players = game.players || [];
          const totals = game.totals || [];
          const winners = new Set(game.winners || []);
          const length = game.games > 1 ? ` · ${t("history.games", { n: game.games })}` : "";
          return h("li", {},
            h("div", { class: "game-head" },
              h("strong", {}, `${game.ruleset}${length}`),
              h("small", {}, game.finished_at ? when(game.finished_at) : t("history.playing"))),
            game.finished_at
              ? h("a", { class: "analysis-link", href: `/?analysis=${game.id}` }, t("analysis.open"))
              : null,
            h("div", { class: "game-scores" }, ...players.map((name, i) =>
              h("span", { class: winners.has(i) ? "won" : "" },
                `${winners.has(i) ? "🏆 " : ""}${name} ${totals[i] ?? ""}`))));
        })),
  );
  const high = Array.isArray(history.high_scores) ? history.high_scores : [];
  $("#high-scores").replaceChildren(
    high.length === 0
      ? h("p", { class: "hint" }, t("history.none"))
      : h("table", { class: "high" },
          h("tbody", {}, ...high.map((row, i) =>
            h("tr", {}, h("td", {}, `${i + 1}.`), h("th", {}, row.player), h("td", {}, row.total),
              h("td", {}, row.ruleset), h("td", {}, h("small", {}, when(row.at))))))),
  );
}

function drawStats() {
  const faces = stats && stats.faces;
  if (!faces) {
    $("#faces-chart").replaceChildren(unavailable("stats"));
    $("#fairness").textContent = "";
    return;
  }
  const counts = Array.isArray(faces) ? faces : Object.keys(faces).sort().map((k) => faces[k]);
  if (!counts.some((n) => n > 0)) {
    $("#faces-chart").replaceChildren(h("p", { class: "hint" }, t("stats.none")));
    $("#fairness").textContent = "";
    return;
  }
  const top = Math.max(1, ...counts);
  const width = 60 * counts.length;
  const svg = s("svg", { viewBox: `0 0 ${width} 180`, class: "chart", role: "img", "aria-label": t("stats.title") });
  counts.forEach((count, i) => {
    const height = (120 * count) / top;
    svg.append(
      s("rect", { x: i * 60 + 10, y: 150 - height, width: 40, height, class: "bar" }),
      s("text", { x: i * 60 + 30, y: 170, "text-anchor": "middle", class: "axis" }, i + 1),
      s("text", { x: i * 60 + 30, y: 144 - height, "text-anchor": "middle", class: "count" }, count),
    );
  });
  $("#faces-chart").replaceChildren(svg);
  const p = stats.p_value;
  $("#fairness").textContent =
    typeof p === "number"
      ? t(p < 0.01 ? "stats.unfair" : "stats.fair", { chi: Number(stats.chi_square).toFixed(2), p: p.toFixed(3) })
      : "";
}

async function main() {
  await frame(() => {
    drawHistory();
    drawStats();
  });
  [history, stats] = await Promise.all([load("/api/history", "history"), load("/api/stats", "stats")]);
  drawHistory();
  drawStats();
  document.body.dataset.ready = "true";
}

main();
