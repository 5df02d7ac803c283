// New game: a rule set (with its one-line description), house rules, players (names are
// remembered on this phone) and the match length.
import { ApiError, get, post } from "./api.js";
import { $, banner, frame, h } from "./dom.js";
import { pick, t } from "./i18n.js";

const NAMES = "dicetray.players";
let rulesets = [];
let options = []; // house rules any rule set may take (the tray refuses a combination that fails)
let chosen = null;

function rememberedNames() {
  try {
    const names = JSON.parse(localStorage.getItem(NAMES) || "[]");
    return Array.isArray(names) ? names.filter((n) => typeof n === "string") : [];
  } catch {
    return [];
  }
}

function nameOf(rs) {
  return rs.names ? pick(rs.names, rs.name || rs.id) : rs.name || rs.id;
}

function drawRulesets() {
  $("#rulesets").replaceChildren(
    ...rulesets.map((rs) =>
      h(
        "label",
        { class: "choice" },
        h("input", {
          type: "radio",
          name: "ruleset",
          value: rs.id,
          checked: chosen && chosen.id === rs.id,
          onchange: () => choose(rs),
        }),
        h("span", { class: "choice-text" },
          h("strong", {}, nameOf(rs)),
          h("small", {}, pick(rs.descriptions, rs.description || "")),
          h("small", { class: "meta" }, t("new.meta", { min: rs.players[0], max: rs.players[1], games: rs.games_per_match }))),
      ),
    ),
  );
}

function choose(rs) {
  const before = new Set(checkedOptions());
  chosen = rs;
  const opts = rs.options || options;
  $("#options-set").hidden = opts.length === 0;
  $("#options").replaceChildren(
    ...opts.map((opt) =>
      h(
        "label",
        { class: "choice" },
        h("input", { type: "checkbox", name: "option", value: opt.id, checked: before.has(opt.id) }),
        h("span", { class: "choice-text" },
          h("strong", {}, opt.names ? pick(opt.names, opt.name || opt.id) : opt.name || opt.id),
          h("small", {}, pick(opt.descriptions, opt.description || ""))),
      ),
    ),
  );
  $("#games").value = rs.games_per_match || 1;
  fitPlayers();
}

function checkedOptions() {
  return [...document.querySelectorAll('input[name="option"]:checked')].map((i) => i.value);
}

function playerInputs() {
  return [...document.querySelectorAll("#players input")];
}

function addPlayer(name = "") {
  const list = $("#players");
  const n = list.children.length + 1;
  const item = h(
    "li",
    { class: "player-row" },
    h("input", {
      type: "text",
      value: name,
      maxlength: 40,
      autocomplete: "off",
      "aria-label": t("new.player_n", { n }),
      placeholder: t("new.player_n", { n }),
    }),
    h("button", {
      type: "button",
      class: "button quiet remove",
      "aria-label": t("new.remove"),
      onclick: () => {
        item.remove();
        fitPlayers();
      },
    }, "×"),
  );
  list.append(item);
  fitPlayers();
}

function fitPlayers() {
  const [min, max] = chosen ? chosen.players : [1, 8];
  const rows = [...$("#players").children];
  rows.forEach((row, i) => {
    row.querySelector(".remove").disabled = rows.length <= Math.max(1, min);
    const input = row.querySelector("input");
    input.placeholder = t("new.player_n", { n: i + 1 });
    input.setAttribute("aria-label", t("new.player_n", { n: i + 1 }));
  });
  $("#add-player").disabled = rows.length >= Math.min(8, max);
}

function fail(text) {
  const el = $("#form-error");
  el.textContent = text;
  el.hidden = false;
}

async function start(event) {
  event.preventDefault();
  $("#form-error").hidden = true;
  if (!chosen) return fail(t("new.pick_ruleset"));
  const names = playerInputs().map((input, i) => input.value.trim() || t("new.player_n", { n: i + 1 }));
  const [min, max] = chosen.players;
  if (names.length < min || names.length > max) return fail(t("new.count", { min, max }));
  if (new Set(names).size !== names.length) return fail(t("new.same_name"));
  const games = Number.parseInt($("#games").value, 10);
  if (!Number.isInteger(games) || games < 1) return fail(t("new.games_bad"));
  const ruleset = [chosen.id, ...checkedOptions()].join("+");
  localStorage.setItem(NAMES, JSON.stringify(names));
  try {
    const state = await get("/api/state");
    await post("/api/games", { version: state.version, ruleset, players: names, games });
    window.location.assign("/");
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return fail(t("join.first"));
    fail(error instanceof ApiError ? error.message : t("error.network"));
  }
}

async function main() {
  $("#new-game").addEventListener("submit", start);
  await frame(() => {
    drawRulesets();
    if (chosen) choose(chosen);
  });
  try {
    const found = await get("/api/rulesets");
    rulesets = Array.isArray(found) ? found : found.rulesets || [];
    options = Array.isArray(found) ? [] : found.options || [];
  } catch (error) {
    banner(error instanceof ApiError ? error.message : t("error.network"));
    rulesets = [];
  }
  chosen = rulesets[0] || null;
  drawRulesets();
  if (chosen) choose(chosen);
  get("/api/state")
    .then((state) => ($("#playing").hidden = !(state.game && !state.game.finished)))
    .catch(() => {});
  const names = rememberedNames();
  (names.length ? names : [""]).slice(0, 8).forEach((n) => addPlayer(n));
  $("#add-player").addEventListener("click", () => addPlayer());
  document.body.dataset.ready = "true";
}

main();
