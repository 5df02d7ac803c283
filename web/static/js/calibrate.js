// Calibration from the phone: the camera's live view (MJPEG, each die the reader finds
// drawn in by the tray) with the tray's and the hold ledge's corners over it to drag; the
// empty tray captured, exposure and focus set, and the save with the report the command
// line prints. A missing or damaged calibration, or a tray without a camera, is said in
// words. Other phones' changes come in with the live state.
import { ApiError, get, post, put } from "./api.js";
import { $, banner, frame, s } from "./dom.js";
import { t } from "./i18n.js";
import { Live } from "./live.js";
import { renderTeaching, startTeaching, updateTeaching } from "./teaching.js";

let cal = null; // GET /api/calibration
let failed = null; // why it could not be loaded
let you = { joined: false, name: null };
let simulated = false;
let sending = null; // the command on its way: "empty", "save", "zones" or "camera"
let zones = null; // the corners as drawn: {tray: [[x, y], ...], ledge: [...] | null}
let drag = null; // {zone, index, pointerId} while a corner is being moved
let zonesPending = false; // a drag ended while another command was on its way
let focused = null; // {zone, index} of the corner the keyboard moves
let keyTimer = null;
let nudging = false; // corners moved by keys, not sent yet

const ZONES = ["tray", "ledge"];

const live = new Live((state) => {
  simulated = Boolean(state.simulated);
  if (!cal || state.version > cal.version) load();
  updateTeaching(state, null);
});
live.onYou = (next) => {
  you = next;
  updateTeaching(null, next);
  render();
};

let loading = null;

function load() {
  if (!loading) loading = fetchCalibration().finally(() => (loading = null));
  return loading;
}

async function fetchCalibration() {
  try {
    take(await get("/api/calibration"));
    failed = null;
  } catch (error) {
    failed = error instanceof ApiError ? error.message : t("error.network");
  }
  render();
}

function take(answer) {
  cal = answer;
  if (!drag && !nudging) zones = { tray: answer.draft.tray, ledge: answer.draft.ledge };
}

function hasCamera() {
  return Boolean(cal && cal.has_camera);
}

// -- the words -------------------------------------------------------------------------------

function standing() {
  if (failed) return ["bad", failed];
  if (!cal) return ["loading", t("cal.loading")];
  if (!hasCamera()) return ["bad", t("cal.no_camera", { why: cal.camera_problem })];
  if (cal.status === "ok") {
    return ["ok", t("cal.ok", { size: Math.round(cal.calibration.die_size) })];
  }
  if (cal.status === "bad") return ["bad", t("cal.bad", { why: cal.why })];
  return ["missing", t("cal.missing")];
}

function render() {
  const [status, text] = standing();
  const line = $("#cal-status");
  line.dataset.status = status;
  delete line.dataset.i18n; // the words are this script's from now on
  line.textContent = text;
  const ready = Boolean(cal) && hasCamera();
  $("#live-view").alt = t("cal.view");
  $("#cal-view").hidden = !ready;
  $("#cal-legend").hidden = !ready;
  $("#cal-join").hidden = !ready || you.joined;
  $("#cal-camera").hidden = !ready;
  const idle = ready && you.joined && !sending && !cal.busy;
  $("#cal-empty").disabled = !idle;
  $("#cal-save").disabled = !idle;
  $("#cal-force").disabled = !idle;
  $("#cal-progress").textContent = sending ? t(`cal.doing_${sending}`) : "";
  if (!cal) return;
  const dice = $("#cal-step-dice");
  dice.textContent = t(simulated ? "cal.step_dice_sim" : "cal.step_dice", { n: cal.dice });
  $("#cal-steps").classList.toggle("empty-done", Boolean(cal.draft.empty));
  if (ready) {
    drawZones();
    drawCamera(idle);
    startView();
  }
  drawReport(idle);
}

// -- the zones --------------------------------------------------------------------------------

function size() {
  return cal.image_size || [1280, 960];
}

function pointsText(points) {
  return points.map(([x, y]) => `${x},${y}`).join(" ");
}

function drawZones() {
  const svg = $("#cal-zones");
  const [w, hgt] = size();
  svg.setAttribute("viewBox", `0 0 ${w} ${hgt}`);
  $("#cal-view").style.aspectRatio = `${w} / ${hgt}`;
  if (drag) return; // the corner under the finger is moved in place
  const dot = Math.max(w, hgt) / 70;
  const reach = Math.max(w, hgt) / 20; // a fingertip's width on a phone's screen
  const canDrag = you.joined && !cal.busy;
  const parts = [];
  for (const zone of ZONES) {
    if (zones[zone]) parts.push(s("polygon", { class: `zone ${zone}`, points: pointsText(zones[zone]) }));
  }
  for (const zone of ZONES) {
    (zones[zone] || []).forEach(([x, y], index) => {
      const handle = s("g", {
        class: `handle ${zone}${canDrag ? "" : " fixed"}`, "data-zone": zone, "data-index": index,
        tabindex: canDrag ? "0" : null, role: canDrag ? "button" : null,
        "aria-label": t("cal.corner", { zone: t(`cal.${zone}`), n: index + 1 }),
      });
      handle.append(
        s("circle", { class: "reach", cx: x, cy: y, r: reach }),
        s("circle", { class: "dot", cx: x, cy: y, r: dot }),
      );
      if (canDrag) {
        handle.addEventListener("pointerdown", (event) => grab(event, handle));
        handle.addEventListener("keydown", (event) => nudge(event, zone, index));
        handle.addEventListener("focus", () => (focused = { zone, index }));
        handle.addEventListener("blur", () => (focused = null));
      }
      parts.push(handle);
    });
  }
  const refocus = focused;
  svg.replaceChildren(...parts);
  if (refocus) { // the corner the keyboard was moving keeps the focus when redrawn
    const again = svg.querySelector(`g[data-zone="${refocus.zone}"][data-index="${refocus.index}"]`);
    if (again) again.focus();
  }
}

// The arrow keys move the focused corner (a hundredth of the frame; with Shift, five).
const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

function nudge(event, zone, index) {
  const arrow = ARROWS[event.key];
  if (!arrow) return;
  event.preventDefault();
  const [w, hgt] = size();
  const step = (Math.max(w, hgt) / 100) * (event.shiftKey ? 5 : 1);
  const [x, y] = zones[zone][index];
  place(zone, index, [
    Math.round(Math.min(Math.max(x + arrow[0] * step, 0), w)),
    Math.round(Math.min(Math.max(y + arrow[1] * step, 0), hgt)),
  ]);
  nudging = true;
  clearTimeout(keyTimer);
  keyTimer = setTimeout(() => { // one command for a run of key presses
    nudging = false;
    sendZones();
  }, 500);
}

function framePoint(event) {
  const svg = $("#cal-zones");
  const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(svg.getScreenCTM().inverse());
  const [w, hgt] = size();
  return [Math.round(Math.min(Math.max(point.x, 0), w)), Math.round(Math.min(Math.max(point.y, 0), hgt))];
}

function grab(event, handle) {
  if (drag) return;
  event.preventDefault();
  drag = { zone: handle.dataset.zone, index: Number(handle.dataset.index), pointerId: event.pointerId };
  handle.classList.add("held");
  handle.setPointerCapture(event.pointerId);
  handle.addEventListener("pointermove", move);
  const done = (end) => {
    if (!drag || end.pointerId !== drag.pointerId) return;
    handle.removeEventListener("pointermove", move);
    handle.classList.remove("held");
    drag = null;
    sendZones();
  };
  handle.addEventListener("pointerup", done, { once: true });
  handle.addEventListener("pointercancel", done, { once: true });
}

function move(event) {
  if (!drag || event.pointerId !== drag.pointerId) return;
  place(drag.zone, drag.index, framePoint(event));
}

// Move one corner on the page (in place: the handle being held stays the same element).
function place(zone, index, [x, y]) {
  const points = zones[zone].map((p) => p.slice());
  points[index] = [x, y];
  zones = { ...zones, [zone]: points };
  const svg = $("#cal-zones");
  svg.querySelector(`polygon.${zone}`).setAttribute("points", pointsText(points));
  const handle = svg.querySelector(`g[data-zone="${zone}"][data-index="${index}"]`);
  for (const circle of handle.querySelectorAll("circle")) {
    circle.setAttribute("cx", x);
    circle.setAttribute("cy", y);
  }
}

function sendZones() {
  if (sending) {
    zonesPending = true;
    return;
  }
  command("zones", put, "/api/calibration/zones", { tray: zones.tray, ledge: zones.ledge });
}

// -- the camera -------------------------------------------------------------------------------

function exposureLimits() {
  return (cal.limits && cal.limits.exposure_us) || [100, 200000];
}

function toSlider(us) {
  const [low, high] = exposureLimits();
  return Math.round((100 * Math.log(us / low)) / Math.log(high / low));
}

function fromSlider(position) {
  const [low, high] = exposureLimits();
  return Math.round(low * (high / low) ** (position / 100));
}

function exposureText(us) {
  return us >= 1000 ? `${(us / 1000).toFixed(us < 10000 ? 1 : 0)} ms` : `${us} µs`;
}

function drawCamera(idle) {
  const camera = cal.draft.camera;
  const exposure = $("#exposure");
  if (sending !== "camera") exposure.value = toSlider(camera.exposure_us);
  exposure.disabled = !idle;
  $("#exposure-value").textContent = exposureText(fromSlider(Number(exposure.value)));
  const manual = camera.lens_position !== null && camera.lens_position !== undefined;
  $("#focus-manual-row").hidden = !cal.can_focus;
  $("#focus-row").hidden = !cal.can_focus;
  $("#focus-fixed").hidden = Boolean(cal.can_focus);
  const box = $("#focus-manual");
  const focus = $("#focus");
  if (sending !== "camera") {
    box.checked = manual;
    if (manual) focus.value = camera.lens_position;
  }
  const [near, far] = (cal.limits && cal.limits.lens_position) || [0, 15];
  focus.min = near;
  focus.max = far;
  box.disabled = !idle;
  focus.disabled = !idle || !box.checked;
  $("#focus-value").textContent = box.checked ? `${Number(focus.value).toFixed(1)} dpt` : t("cal.focus_auto");
}

function sendCamera() {
  const lens = $("#focus-manual").checked ? Number($("#focus").value) : null;
  command("camera", put, "/api/calibration/camera", {
    exposure_us: fromSlider(Number($("#exposure").value)),
    lens_position: lens,
  });
}

// The live view: an MJPEG stream while the page is seen (each open one holds a thread of the
// tray's server); when it ends or is refused it is tried again a little later.
let viewing = false;
let retry = null;

function startView() {
  if (viewing || document.visibilityState !== "visible" || document.readyState !== "complete") return;
  const img = $("#live-view");
  viewing = true;
  img.src = `/api/camera.mjpg?zones=0&t=${Date.now()}`;
}

function stopView() {
  viewing = false;
  clearTimeout(retry);
  $("#live-view").removeAttribute("src");
}

// -- the report -------------------------------------------------------------------------------

function drawReport(idle) {
  const lines = cal.report || [];
  $("#cal-result").hidden = lines.length === 0;
  if (!lines.length) return;
  $("#cal-report").textContent = lines.join("\n");
  const saved = $("#cal-saved");
  saved.textContent = t(cal.saved ? "cal.saved" : "cal.not_saved");
  saved.className = cal.saved ? "saved" : "flag";
  $("#cal-force").hidden = Boolean(cal.saved);
  $("#cal-force").disabled = !idle;
}

// -- commands ---------------------------------------------------------------------------------

async function command(what, send, path, body = {}) {
  if (sending || !cal) return null;
  sending = what;
  render();
  const decidedOn = cal.version;
  try {
    const answer = await send(path, { version: decidedOn, ...body });
    take(answer);
    if (what === "empty") banner(t("cal.empty_done"), "info");
    return answer;
  } catch (error) {
    const message = error instanceof ApiError ? error.message : t("error.network");
    sending = null;
    await load();
    const stale = error instanceof ApiError && error.status === 409 && cal && cal.version !== decidedOn;
    banner(stale ? `${t("error.stale")} ${message}` : message);
    return null;
  } finally {
    sending = null;
    if (zonesPending && cal) {
      zonesPending = false;
      sendZones();
    }
    render();
  }
}

async function main() {
  await frame(() => {
    render();
    renderTeaching();
  });
  startTeaching(() => live.version);
  $("#cal-empty").addEventListener("click", () => command("empty", post, "/api/calibration/empty"));
  $("#cal-save").addEventListener("click", () => command("save", post, "/api/calibration/save"));
  $("#cal-force").addEventListener("click", () =>
    command("save", post, "/api/calibration/save", { force: true }));
  $("#exposure").addEventListener("input", () => {
    $("#exposure-value").textContent = exposureText(fromSlider(Number($("#exposure").value)));
  });
  $("#exposure").addEventListener("change", sendCamera);
  $("#focus").addEventListener("input", () => {
    $("#focus-value").textContent = `${Number($("#focus").value).toFixed(1)} dpt`;
  });
  $("#focus").addEventListener("change", sendCamera);
  $("#focus-manual").addEventListener("change", () => {
    $("#focus").disabled = !$("#focus-manual").checked;
    sendCamera();
  });
  const img = $("#live-view");
  img.addEventListener("error", () => {
    viewing = false;
    clearTimeout(retry);
    retry = setTimeout(startView, 3000); // refused (rolling, too many views) or ended
  });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") startView();
    else stopView();
  });
  // the stream never finishes loading: started after the page's own load
  window.addEventListener("load", startView);
  await live.start();
  if (!cal) await load();
  document.body.dataset.ready = "true";
}

main();
