// The scorecard and the play controls. Everything shown comes from the state; every tap
// sends a command with the state's version and the answer (or the live stream) redraws.
import { ApiError, post } from "./api.js";
import { adviceFor, analysisOf, analysisPanel, coachPanel, hintsOn, setHints } from "./coach.js";
import { dieFace } from "./dice.js";
import { $, banner, frame, h, s } from "./dom.js";
import { frameFigure } from "./frame.js";
import { has, lang, pick, t } from "./i18n.js";
import { Live } from "./live.js";
import { layoutOf, parOf } from "./sheet.js";

const BUSY = new Set(["tumbling", "settling", "reading"]);
let state = null;
let layout = null;
let sending = false;
let edit = null; // the dice being corrected or entered by hand: {key, values}
let you = { joined: false, name: null };

const live = new Live(
  (next) => show(next),
  (connection) => {
    $("#live").dataset.state = connection;
    $("#live").title = t(`live.${connection}`);
    $("#live-text").textContent = connection === "offline" ? t("live.offline") : "";
  },
);
live.onYou = (next) => {
  const changed = next.joined !== you.joined;
  you = next;
  if (changed && state) render();
};

let newest = null;
let drawing = 0;
// The state's "game" is the current game with its match beside it ({...game, match:
// {ruleset, players, games, number, finished, totals, winners}}); the scorecard works on the
// match with its game inside.
function matchOf(game) {
  if (!game) return null;
  if (game.match) return { ...game.match, can_undo: game.can_undo, game };
  return game.game ? game : null;
}

async function show(next) {
  newest = next;
  next.match = matchOf(next.game);
  const match = next.match;
  const [found] = await Promise.all([
    match ? layoutOf(match.ruleset).then((l) => l || fallbackLayout(match)) : null,
    wordsReady,
  ]);
  if (newest !== next) return; // a newer state arrived while the layout loaded
  state = next;
  layout = found;
  // states that come in a burst (tumbling, settling, reading, read) are drawn once, at the
  // next frame, with the newest of them
  if (!drawing) drawing = requestAnimationFrame(() => {
    drawing = 0;
    render();
  });
}

function fallbackLayout(match) {
  const sheet = match.game.sheets[0];
  const columns = Object.keys(sheet.columns);
  const ids = Object.keys(sheet.columns[columns[0]].boxes);
  return {
    id: match.ruleset,
    names: { en: match.ruleset },
    dice: match.game.turn.dice ? match.game.turn.dice.length : 5,
    faces: 6,
    hold: "free",
    declaration: "none",
    upper_bonus: null,
    columns: columns.map((id) => ({ id, order: "free", names: { en: id } })),
    boxes: ids.map((id) => ({ id, section: "lower", names: { en: id }, params: {} })),
  };
}

function joined() {
  return Boolean(you.joined);
}

async function send(path, body = {}) {
  if (sending) return null;
  sending = true;
  document.body.classList.add("sending");
  if (state) render(); // the buttons say at once that a command is on its way
  const decidedOn = state.version;
  try {
    const answer = await post(path, { version: decidedOn, ...body });
    if (answer && typeof answer.version === "number") live.accept(answer);
    return answer;
  } catch (error) {
    const message = error instanceof ApiError ? error.message : t("error.network");
    if (!(error instanceof ApiError) || error.status === 409 || error.status === 422) {
      const fresh = await live.catchUp();
      // refused because another phone acted first: say so, and the page shows what it did
      if (error.status === 409 && fresh && fresh.version !== decidedOn) {
        banner(`${t("error.stale")} ${message}`);
        return null;
      }
    }
    banner(message);
    return null;
  } finally {
    sending = false;
    document.body.classList.remove("sending");
    if (state) render();
  }
}

function boxName(id) {
  const box = layout && layout.boxes.find((b) => b.id === id);
  return box ? pick(box.names, id) : id;
}

function columnName(id) {
  const col = layout.columns.find((c) => c.id === id);
  return col ? pick(col.names, id) : id;
}

// -- rendering ---------------------------------------------------------------------------

function render() {
  const match = state.match;
  document.body.dataset.version = state.version;
  if (!performance.getEntriesByName("dicetray:first-render").length) {
    performance.mark("dicetray:first-render"); // benchmarks/pages.py reads it
  }
  $("#cycle").textContent = t(`cycle.${state.cycle}`);
  $("#cycle").dataset.cycle = state.cycle;
  const trouble = state.cycle === "error" || (state.cycle === "needs-help" && !state.reading);
  $("#why").hidden = !(trouble && (state.why || state.trouble));
  $("#why").textContent = troubleText(state.why);
  $("#join-note").hidden = joined();
  $("#no-game").hidden = Boolean(match);
  renderAnalysis(match);
  for (const id of ["#turn", "#sheet-wrap"]) $(id).hidden = !match;
  if (!match) {
    $("#match-line").textContent = state.simulated ? t("status.simulated") : "";
    $("#winner").hidden = true;
    return;
  }
  const name = pick(layout.names, match.ruleset);
  const parts = [name];
  if (match.games > 1) parts.push(t("status.game_of", { n: match.number, of: match.games }));
  if (state.simulated) parts.push(t("status.simulated"));
  $("#match-line").textContent = parts.join(" · ");
  renderWinner(match);
  renderTurn(match);
  renderSheet(match);
  renderCoach(match);
}

// -- the coach -----------------------------------------------------------------------------

function renderCoach(match) {
  const game = match.game;
  const panel = $("#coach");
  const wanted = !game.finished && game.turn.dice && state.cycle === "idle" &&
    hintsOn(game.players[game.current]);
  if (!wanted) {
    panel.hidden = true;
    return;
  }
  const asked = adviceFor(state.version, () => state && state.version === asked.version && render());
  if (asked.answer === undefined) {
    asked.promise.then(() => state && state.version === asked.version && render());
    return;
  }
  const advice = asked.answer;
  panel.hidden = !advice;
  if (!advice) return;
  panel.replaceChildren(...coachPanel(advice, boxName));
  if (!advice.available) return;
  const best = advice.options[0];
  if (best.kind === "keep") {
    for (const position of best.positions) {
      const die = $(`#dice .die[data-position="${position}"]`);
      if (die) die.classList.add("advised");
    }
  } else {
    const row = $(`#sheet tr[data-box="${best.box}"]`);
    const cell = row && row.querySelectorAll("td")[game.current * Math.max(1, layout.columns.length)];
    if (cell) cell.classList.add("advised");
  }
}

function hintToggle(name) {
  const on = hintsOn(name);
  return h("button", {
    type: "button",
    class: `hint-toggle${on ? " on" : ""}`,
    "aria-pressed": on ? "true" : "false",
    "aria-label": t(on ? "coach.hide" : "coach.show", { name }),
    title: t(on ? "coach.hide" : "coach.show", { name }),
    onclick: () => {
      setHints(name, !hintsOn(name));
      render();
    },
  }, bulb());
}

function bulb() {
  const svg = s("svg", { viewBox: "0 0 24 24", class: "bulb", "aria-hidden": "true" });
  svg.append(
    s("path", { d: "M12 3a6 6 0 0 0-3.5 10.9V16h7v-2.1A6 6 0 0 0 12 3z", class: "bulb-glass" }),
    s("rect", { x: 9, y: 17.5, width: 6, height: 2.5, rx: 1, class: "bulb-base" }),
  );
  return svg;
}

let analysed = null; // {key, answer}

function analysisWanted(match) {
  const asked = new URLSearchParams(location.search).get("analysis");
  if (asked && /^\d+$/.test(asked)) return asked;
  return match && match.game.finished ? "current" : null;
}

function renderAnalysis(match) {
  const wanted = analysisWanted(match);
  const panel = $("#analysis");
  if (!wanted) {
    panel.hidden = true;
    return;
  }
  const key = `${wanted}:${wanted === "current" ? state.version : ""}`;
  if (!analysed || analysed.key !== key) {
    analysed = { key, answer: undefined };
    const mine = analysed;
    analysisOf(wanted === "current" ? null : Number(wanted))
      .catch((error) => ({ available: false, reason: "error", why: error.message }))
      .then((answer) => {
        mine.answer = answer;
        if (analysed === mine && state) render();
      });
  }
  panel.hidden = analysed.answer === undefined;
  if (analysed.answer) panel.replaceChildren(...analysisPanel(analysed.answer, boxName));
}

function renderWinner(match) {
  const game = match.game;
  const box = $("#winner");
  const over = match.finished || game.finished;
  box.hidden = !over;
  if (!over) return;
  const whole = match.finished;
  const totals = whole ? match.totals : game.sheets.map((sheet) => sheet.total);
  const winners = whole ? match.winners : game.winners;
  const names = winners.map((i) => match.players[i]);
  const key = names.length > 1 ? "winner.tie" : whole && match.games > 1 ? "winner.match" : "winner.game";
  box.replaceChildren(
    h("div", { class: "trophy", "aria-hidden": "true" }, "🏆"),
    h("p", { class: "winner-name" }, t(key, { names: names.join(" & "), total: totals[winners[0]] })),
  );
  if (!whole) {
    box.append(
      h("button", {
        type: "button",
        class: "button primary big",
        id: "next-game",
        disabled: !joined() || sending,
        onclick: () => send("/api/next-game"),
      }, t("winner.next", { n: match.number + 1 })),
    );
  }
}

function renderTurn(match) {
  const game = match.game;
  const turn = game.turn;
  const playing = !game.finished;
  const busy = BUSY.has(state.cycle);
  const help = state.cycle === "needs-help";
  $("#turn").hidden = !playing && !help;
  $("#whose").textContent = playing ? t("turn.whose", { name: game.players[game.current] }) : "";
  $("#rolls-left").textContent = playing ? t("turn.rolls_left", { n: turn.rolls_left }) : "";

  renderDice(turn, busy, playing && !help);
  $("#dice").hidden = help;
  $("#dice-hint").hidden = help;
  renderFlags();
  renderHelp(help, turn);

  const canAct = joined() && playing && !busy && !sending;
  const roll = $("#roll");
  roll.hidden = help;
  roll.disabled = !canAct || turn.rolls_left <= 0 || !["idle", "error"].includes(state.cycle);
  roll.textContent = busy ? t(`cycle.${state.cycle}`) : t("play.roll");
  roll.classList.toggle("rolling", busy);
  $("#help-reroll").disabled = !canAct || !help;
  const declare = $("#declare");
  declare.hidden = !turn.can_declare || help;
  declare.disabled = !canAct;
  if (!turn.can_declare) $("#declare-list").hidden = true;
  $("#undo").hidden = help;
  $("#undo").disabled = !joined() || busy || match.can_undo === false;
  const declared = turn.declared
    ? t("turn.declared", { box: boxName(turn.declared.box) }) +
      (layout.columns.length > 1 && turn.declared.column ? ` (${columnName(turn.declared.column)})` : "")
    : "";
  $("#dice-hint").textContent = declared || diceHint(turn, canAct);

  const figure = $("#frame");
  const snapshot = !help && state.reading && state.reading.frame ? frameFigure(state.reading) : null;
  figure.hidden = !snapshot;
  figure.replaceChildren(...(snapshot ? [snapshot] : []));
}

function diceHint(turn, canAct) {
  if (!turn.dice) return t("turn.roll_first");
  if (!canAct || turn.rolls_left <= 0 || layout.hold === "none") return "";
  return state.simulated ? t("turn.tap_keep") : t("turn.ledge_keep");
}

function renderDice(turn, busy, tappable) {
  const count = layout.dice || 5;
  const values = turn.dice || Array(count).fill(null);
  const held = new Set(turn.held);
  const row = $("#dice");
  row.setAttribute("aria-label", t("turn.dice"));
  row.classList.toggle("rolling", busy);
  const canKeep =
    tappable && joined() && turn.dice && turn.rolls_left > 0 && state.cycle === "idle" &&
    layout.hold !== "none";
  row.replaceChildren(
    ...values.map((value, position) => {
      const kept = held.has(position);
      const label = value
        ? t(kept ? "die.kept" : "die.free", { value, n: position + 1 })
        : t("die.none", { n: position + 1 });
      return h(
        "button",
        {
          type: "button",
          class: `die${kept ? " kept" : ""}`,
          "aria-pressed": kept ? "true" : "false",
          "aria-label": label,
          disabled: !canKeep,
          dataset: { position, value: value ?? "" },
          onclick: () => toggleKeep(position),
        },
        dieFace(value),
        h("span", { class: "die-tag" }, kept ? t("die.kept_tag") : ""),
      );
    }),
  );
}

function toggleKeep(position) {
  const held = new Set(state.match.game.turn.held);
  if (held.has(position)) held.delete(position);
  else held.add(position);
  send("/api/keep", { dice: [...held].sort((a, b) => a - b) });
}

function renderFlags() {
  const flags = state.flags || [];
  $("#flags").replaceChildren(...flags.map((flag) => h("p", { class: "flag" }, "⚠ ", flag)));
}

// The dice to confirm or type, by position: kept dice keep their values; the thrown ones
// start from the reader's guesses (dice on the ledge matched to the kept ones first).
function startingValues(turn, reading) {
  const count = layout.dice || 5;
  const held = turn.dice ? turn.held : [];
  const pool = reading ? [...(reading.dice || [])] : [];
  for (const position of held) {
    const value = turn.dice[position];
    let at = pool.findIndex((d) => d.value === value && d.zone === "ledge");
    if (at < 0) at = pool.findIndex((d) => d.value === value);
    if (at >= 0) pool.splice(at, 1);
  }
  const guesses = pool.map((d) => d.value ?? null);
  return Array.from({ length: count }, (_, p) =>
    held.includes(p) ? turn.dice[p] : guesses.length ? guesses.shift() : null,
  );
}

// What is wrong, in words: the trouble's own in the page's language, with the tray's English
// detail after it on an English page.
function troubleText(detail) {
  const key = `trouble.${state.trouble}`;
  if (!state.trouble || !has(key)) return detail || "";
  const lead = `${state.trouble}:`; // the reader's reasons start with their trouble's word
  const rest = (detail || "").startsWith(lead) ? detail.slice(lead.length).trim() : detail;
  return lang() === "en" && rest ? `${t(key)}: ${rest}` : t(key);
}

function renderHelp(help, turn) {
  const panel = $("#help");
  panel.hidden = !help;
  if (!help) {
    edit = null;
    return;
  }
  const reading = !state.manual && state.reading ? state.reading : null;
  const key = `help:${reading ? reading.id : "hand"}:${state.match.number}:${state.match.game.current}:${turn.rolls_used}`;
  if (!edit || edit.key !== key) edit = { key, values: startingValues(turn, reading) };
  $("#help-why").textContent = reading
    ? t("help.unsure", { why: troubleText(state.why || reading.reason) || t("help.no_reason") })
    : t("help.manual", { why: troubleText(state.why) || t("help.camera_lost") });
  const shot = reading ? frameFigure(reading) : null;
  $("#help-frame").replaceChildren(...(shot ? [shot] : []));
  const held = new Set(turn.dice ? turn.held : []);
  const faces = layout.faces || 6;
  const draw = () => {
    $("#help-dice").replaceChildren(
      ...edit.values.map((value, i) =>
        h(
          "button",
          {
            type: "button",
            class: `die${held.has(i) ? " kept" : ""}`,
            "aria-label": t("die.set", { n: i + 1, value: value ?? "?" }),
            disabled: !joined() || held.has(i),
            dataset: { position: i, value: value ?? "" },
            onclick: () => {
              edit.values[i] = value === null ? 1 : (value % faces) + 1;
              draw();
            },
          },
          dieFace(value),
        ),
      ),
    );
    const ready = edit.values.every((v) => v !== null);
    const confirm = $("#help-confirm");
    confirm.disabled = !joined() || !ready || sending;
    confirm.textContent = t(reading ? "help.confirm" : "help.enter");
  };
  draw();
}

let sheetDrawn = "";

function renderSheet(match) {
  const game = match.game;
  const table = $("#sheet");
  const columns = layout.columns.map((c) => c.id).filter((c) => c in game.sheets[0].columns);
  const multi = columns.length > 1;
  const options = new Map(game.options.map((o) => [`${o.column}|${o.box}`, o]));
  const canScore = joined() && !game.finished && state.cycle === "idle" && game.turn.dice;
  // a roll's states (tumbling, settling, reading) leave the sheet as it is: drawn once
  const drawn = JSON.stringify([
    lang(), layout.id, columns, game.sheets, game.current, game.finished, Boolean(game.turn.dice),
    game.options, Boolean(canScore), match.finished, match.winners, match.totals, game.winners,
    game.players.map((name) => hintsOn(name)),
  ]);
  if (drawn === sheetDrawn && table.firstChild) return;
  sheetDrawn = drawn;
  const head = h("thead");
  const names = h("tr", {}, h("th", { class: "box-name" }, ""));
  game.players.forEach((player, i) => {
    const cls = ["player"];
    if (i === game.current && !game.finished) cls.push("current");
    if ((match.finished ? match.winners : game.winners).includes(i)) cls.push("won");
    names.append(h("th", { class: cls.join(" "), colspan: columns.length, scope: "colgroup" }, player,
      hintToggle(player)));
  });
  head.append(names);
  if (multi) {
    const row = h("tr", {}, h("th", {}, ""));
    game.players.forEach(() => columns.forEach((c) => row.append(h("th", { class: "col-name" }, columnName(c)))));
    head.append(row);
  }
  const body = h("tbody");
  const upper = layout.boxes.filter((b) => b.section === "upper");
  const lastUpper = upper.length ? upper[upper.length - 1].id : null;
  const cellClass = (i) => (i === game.current && !game.finished ? "current" : "");

  for (const box of layout.boxes) {
    const row = h("tr", { class: `box ${box.section}`, dataset: { box: box.id } });
    row.append(h("th", { scope: "row", class: "box-name", title: box.describe || "" }, pick(box.names, box.id)));
    game.sheets.forEach((sheet, i) => {
      for (const col of columns) {
        const value = sheet.columns[col].boxes[box.id];
        const cell = h("td", { class: cellClass(i), dataset: { column: col } });
        if (value !== null && value !== undefined) {
          cell.append(h("span", { class: "filled" }, value));
        } else if (i === game.current && game.turn.dice && box.section !== "computed" && !game.finished) {
          const option = options.get(`${col}|${box.id}`);
          if (option) {
            const points = option.points + option.extra;
            cell.append(
              h(
                "button",
                {
                  type: "button",
                  class: `option${points === 0 ? " zero" : ""}`,
                  disabled: !canScore,
                  "aria-label": t("score.enter", { points, box: pick(box.names, box.id) }),
                  onclick: () => score(box.id, col, points),
                },
                points,
              ),
            );
          } else {
            cell.classList.add("forbidden");
            cell.append(h("span", { "aria-label": t("score.forbidden") }, "–"));
          }
        }
        row.append(cell);
      }
    });
    body.append(row);
    if (box.id === lastUpper) body.append(...upperRows(game, columns, cellClass));
  }
  const total = h("tr", { class: "sum total" }, h("th", { scope: "row" }, t("sheet.total")));
  game.sheets.forEach((sheet, i) =>
    columns.forEach((col) => total.append(h("td", { class: cellClass(i) }, sheet.columns[col].totals.total))),
  );
  body.append(total);
  if (multi) body.append(spanRow("sheet.grand", game.sheets.map((sheet) => sheet.total), columns, cellClass));
  if (match.games > 1) body.append(spanRow("sheet.match", match.totals, columns, cellClass, "match"));
  table.replaceChildren(head, body);
  table.classList.toggle("many", game.players.length * columns.length > 3);
}

function spanRow(key, values, columns, cellClass, extra = "") {
  const row = h("tr", { class: `sum ${extra}` }, h("th", { scope: "row" }, t(key)));
  values.forEach((value, i) => row.append(h("td", { class: cellClass(i), colspan: columns.length }, value)));
  return row;
}

function upperRows(game, columns, cellClass) {
  const bonus = layout.upper_bonus;
  const par = h("tr", { class: "sum par" }, h("th", { scope: "row", title: t("sheet.par_explain") }, t("sheet.par")));
  const sub = h("tr", { class: "sum" }, h("th", { scope: "row" }, t("sheet.upper")));
  const bon = bonus
    ? h("tr", { class: "sum bonus" }, h("th", { scope: "row", title: t("sheet.bonus_explain", { points: bonus.points, threshold: bonus.threshold }) }, t("sheet.bonus")))
    : null;
  game.sheets.forEach((sheet, i) => {
    for (const col of columns) {
      const diff = parOf(layout, sheet.entries, col);
      const text = diff === null ? "" : diff > 0 ? t("sheet.up", { n: diff }) : diff < 0 ? t("sheet.down", { n: -diff }) : t("sheet.even");
      par.append(h("td", { class: `${cellClass(i)} ${diff > 0 ? "ahead" : diff < 0 ? "behind" : ""}` }, text));
      const totals = sheet.columns[col].totals;
      sub.append(h("td", { class: cellClass(i) }, totals.upper));
      if (bon) {
        const earned = totals.upper_bonus > 0;
        bon.append(
          h("td", { class: `${cellClass(i)} ${earned ? "earned" : ""}` },
            earned ? totals.upper_bonus : h("span", { class: "towards" }, `${totals.upper}/${bonus.threshold}`)),
        );
      }
    }
  });
  return [par, sub, bon].filter(Boolean);
}

// -- commands ------------------------------------------------------------------------------

async function score(box, column, points) {
  const name = boxName(box);
  if (points === 0 && !(await confirmDialog(t("score.zero_confirm", { box: name })))) return;
  send("/api/score", { box, column });
}

function confirmDialog(text) {
  const dialog = $("#confirm");
  $("#confirm-text").textContent = text;
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "yes"), { once: true });
    dialog.returnValue = "";
    dialog.showModal();
  });
}

function declareList() {
  const list = $("#declare-list");
  if (!list.hidden) {
    list.hidden = true;
    return;
  }
  const game = state.match.game;
  const sheet = game.sheets[game.current];
  const mickey = layout.declaration === "mickey";
  const items = [];
  for (const col of layout.columns) {
    if (!mickey && col.order !== "announce") continue;
    for (const box of layout.boxes) {
      if (box.section === "computed") continue;
      if (sheet.columns[col.id] && sheet.columns[col.id].boxes[box.id] === null) {
        const label = pick(box.names, box.id) + (layout.columns.length > 1 ? ` (${pick(col.names, col.id)})` : "");
        items.push(
          h("button", {
            type: "button",
            class: "button",
            onclick: () => {
              list.hidden = true;
              send("/api/declare", { box: box.id, column: col.id });
            },
          }, label),
        );
      }
    }
  }
  list.replaceChildren(h("p", { class: "hint" }, t("play.declare_pick")), ...items);
  list.hidden = false;
}

function wire() {
  $("#roll").addEventListener("click", () => send("/api/roll"));
  $("#help-reroll").addEventListener("click", () => send("/api/roll"));
  $("#declare").addEventListener("click", declareList);
  $("#undo").addEventListener("click", async () => {
    if (await confirmDialog(t("play.undo_confirm"))) send("/api/undo");
  });
  $("#help-confirm").addEventListener("click", () => {
    if (edit && edit.values.every((v) => v !== null)) send("/api/correct", { dice: edit.values });
  });
}

// the words and the state are fetched at once; a state is drawn once the words are in
let wordsReady = null;

async function main() {
  wordsReady = frame(() => state && render());
  wire();
  await Promise.all([wordsReady, live.start()]);
  document.body.dataset.ready = "true";
}

main();
