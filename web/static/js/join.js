// Join the table with its code (typed, or from the QR code's link); a joined phone shows
// the QR code for the next one.
import { ApiError, get, post } from "./api.js";
import { $, frame } from "./dom.js";
import { t } from "./i18n.js";

const CODE = "dicetray.code";
const NAME = "dicetray.name";

// Each module drawn a whole number of the screen's pixels, as large as the room app.css
// gives the code allows: a module edge between two pixels is blended to grey, which a
// camera reads less surely. The SVG is one unit per module, so its natural width is the
// module count.
function fitQr() {
  const img = $("#qr");
  const modules = img.naturalWidth;
  if (!modules) return;
  img.style.width = img.style.height = ""; // the room, as app.css sizes it
  const ratio = window.devicePixelRatio || 1;
  const room = img.getBoundingClientRect().width * ratio;
  const each = Math.max(1, Math.floor(room / modules));
  img.style.width = img.style.height = `${(each * modules) / ratio}px`;
  img.dataset.fitted = "true";
}

function share(code) {
  if (!code) return;
  $("#share").hidden = false;
  $("#qr").addEventListener("load", fitQr);
  window.addEventListener("resize", fitQr);
  $("#qr").src = `/join/qr.svg?code=${encodeURIComponent(code)}`;
  $("#qr").alt = t("join.qr_alt");
  $("#code-show").textContent = code;
}

function showJoined(name) {
  const code = localStorage.getItem(CODE);
  const note = $("#joined");
  note.textContent = name ? t("join.joined", { name }) : t("join.joined_nameless");
  if (!code) note.textContent += ` ${t("join.to_share")}`;
  note.hidden = false;
  // the QR code first: this phone is here to let the next one in
  if (code) {
    share(code);
    $("#main").prepend($("#share"));
    $("#join-form").hidden = true;
  }
}

async function join(event) {
  event.preventDefault();
  const code = $("#code").value.trim();
  const name = $("#name").value.trim();
  const error = $("#join-error");
  error.hidden = true;
  if (!code) {
    error.textContent = t("join.code_missing");
    error.hidden = false;
    return;
  }
  try {
    await post("/api/join", { code, name });
    localStorage.setItem(CODE, code);
    if (name) localStorage.setItem(NAME, name);
    window.location.assign("/");
  } catch (err) {
    error.textContent =
      err instanceof ApiError && err.status === 403 ? t("join.wrong_code") : err.message || t("error.network");
    error.hidden = false;
  }
}

async function main() {
  $("#join-form").addEventListener("submit", join);
  const params = new URLSearchParams(window.location.search);
  $("#code").value = params.get("code") || "";
  $("#name").value = localStorage.getItem(NAME) || "";
  await frame();
  try {
    const state = await get("/api/state");
    if (state.you && state.you.joined) showJoined(state.you.name);
  } catch {
    // the form still works; the share part waits for a joined session
  }
  document.body.dataset.ready = "true";
}

main();
