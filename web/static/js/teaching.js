// What the tray has learnt of the players' dice (GET /api/teaching): the teaching file's
// standing in words, the confirmed dice per value, and forgetting it all (after the players
// confirm). The calibrate page hands it each new state; it fetches when the teaching changed.
import { ApiError, get, post } from "./api.js";
import { dieFace } from "./dice.js";
import { $, banner, h } from "./dom.js";
import { t } from "./i18n.js";

let taught = null; // GET /api/teaching
let failed = null;
let joined = false;
let sending = false;
let seen = ""; // the state's teaching the panel was fetched for

// A new state (or this phone's session): fetch again when what the tray learnt changed.
export function updateTeaching(state, you) {
  if (you) joined = Boolean(you.joined);
  if (state && state.teaching) {
    const key = JSON.stringify(state.teaching);
    if (key !== seen) {
      seen = key;
      loadTeaching();
    }
  }
  renderTeaching();
}

export async function loadTeaching() {
  try {
    taught = await get("/api/teaching");
    failed = null;
  } catch (error) {
    failed = error instanceof ApiError ? error.message : t("error.network");
  }
  renderTeaching();
}

function standing() {
  if (failed) return ["bad", failed];
  if (!taught) return ["loading", t("cal.loading")];
  if (taught.status === "bad") return ["bad", t("teach.bad", { why: taught.why })];
  if (!taught.dice) return ["missing", t("teach.none")];
  return ["ok", t("teach.ok", { n: taught.dice })];
}

export function renderTeaching() {
  const [status, text] = standing();
  const line = $("#teach-status");
  if (!line) return;
  line.dataset.status = status;
  delete line.dataset.i18n;
  line.textContent = text;
  const values = taught ? taught.values || {} : {};
  $("#teach-values").setAttribute("aria-label", t("teach.values"));
  $("#teach-values").replaceChildren(
    ...[1, 2, 3, 4, 5, 6].map((value) => {
      const n = values[String(value)] || 0;
      return h(
        "li",
        { class: n ? "learnt" : "", "aria-label": t("teach.value", { value, n }) },
        dieFace(value),
        h("span", { class: "count" }, String(n)),
      );
    }),
  );
  const something = Boolean(taught) && (taught.status !== "missing" || taught.dice > 0);
  $("#teach-forget").disabled = !joined || sending || !something;
}

function confirmForget() {
  const dialog = $("#teach-confirm");
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "yes"), { once: true });
    dialog.returnValue = "";
    dialog.showModal();
  });
}

async function forget(version) {
  if (sending || !(await confirmForget())) return;
  sending = true;
  renderTeaching();
  try {
    taught = await post("/api/teaching/forget", { version: version() });
    banner(t("teach.forgotten"), "info");
  } catch (error) {
    banner(error instanceof ApiError ? error.message : t("error.network"));
    await loadTeaching();
  } finally {
    sending = false;
    renderTeaching();
  }
}

// Wire the forget button; version() is the version of the state on screen.
export function startTeaching(version) {
  $("#teach-forget").addEventListener("click", () => forget(version));
}
