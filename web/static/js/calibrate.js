// Calibration from the phone: the camera view with the tray and the hold ledge drawn over
// it. It needs the tray's calibration endpoints (GET /api/calibration and the camera
// stream); a tray without them, or without a calibration, says so here.
import { ApiError, get } from "./api.js";
import { $, frame, h, s } from "./dom.js";
import { t } from "./i18n.js";

let calibration = null;
let problem = null;

function polygon(points, cls) {
  return s("polygon", { points: points.map((p) => p.join(",")).join(" "), class: cls });
}

function draw() {
  const box = $("#camera");
  if (!calibration) {
    box.replaceChildren(h("p", { class: "hint unavailable", id: "camera-state" }, t(problem || "cal.not_yet")));
    return;
  }
  $("#cal-explain").hidden = false;
  $("#cal-actions").hidden = false;
  $("#cal-camera").hidden = false;
  const [w, hgt] = calibration.image_size || [1280, 960];
  const view = h("div", { class: "snapshot-view" });
  if (calibration.camera) view.append(h("img", { src: calibration.camera, alt: t("cal.view") }));
  const svg = s("svg", { viewBox: `0 0 ${w} ${hgt}`, class: "zones" });
  if (calibration.tray) svg.append(polygon(calibration.tray, "zone tray"));
  if (calibration.ledge) svg.append(polygon(calibration.ledge, "zone ledge"));
  view.append(svg);
  box.replaceChildren(view);
  const report = $("#cal-report");
  report.hidden = !calibration.report;
  report.textContent = calibration.report || "";
}

async function main() {
  await frame(draw);
  try {
    calibration = await get("/api/calibration");
  } catch (error) {
    problem = error instanceof ApiError && error.status === 404 ? "cal.not_yet" : "error.network";
    if (error instanceof ApiError && error.body && error.body.error && error.status !== 404) {
      problem = null;
      calibration = null;
      $("#camera").replaceChildren(h("p", { class: "hint unavailable" }, error.body.error));
      document.body.dataset.ready = "true";
      return;
    }
  }
  draw();
  document.body.dataset.ready = "true";
}

main();
