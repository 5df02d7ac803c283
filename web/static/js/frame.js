// The tray snapshot of a reading with the value read drawn over each die: the phone-sized
// view of the frame where the tray made one (the dice's x and y stay in the frame's pixels).
import { h, s } from "./dom.js";
import { t } from "./i18n.js";

export function frameFigure(reading) {
  const figure = h("figure", { class: "snapshot" });
  if (!reading || !reading.frame) return null;
  const img = h("img", { src: reading.view || reading.frame, alt: t("frame.alt"), loading: "lazy" });
  const wrap = h("div", { class: "snapshot-view" }, img);
  figure.append(wrap);
  const overlay = () => {
    const w = reading.width || img.naturalWidth;
    const hgt = reading.height || img.naturalHeight;
    if (!w || !hgt) return;
    const svg = s("svg", { viewBox: `0 0 ${w} ${hgt}`, class: "snapshot-marks", "aria-hidden": "true" });
    const r = Math.max(w, hgt) / 28;
    // a die in doubt, or seen but not read (no value), is marked unsure: the players see
    // which dice the tray could not read, not only the one its reason names
    const marks = [
      ...(reading.dice || []).map((die) => ({
        ...die,
        sure: reading.status === "ok" || (!die.problem && (die.confidence ?? 1) >= 0.5),
      })),
      ...(reading.unread || []).map((die) => ({ ...die, value: null, sure: false })),
    ];
    for (const die of marks) {
      const g = s("g", { class: die.sure ? "mark" : "mark unsure" });
      if (die.problem) g.append(s("title", {}, die.problem));
      g.append(s("circle", { cx: die.x, cy: die.y, r: r * 1.25 }));
      g.append(
        s("text", { x: die.x, y: die.y - r * 1.6, "text-anchor": "middle", "font-size": r * 1.5 },
          die.value ?? "?"),
      );
      svg.append(g);
    }
    wrap.append(svg);
  };
  if (img.complete) overlay();
  else img.addEventListener("load", overlay, { once: true });
  img.addEventListener("error", () => figure.classList.add("missing"), { once: true });
  // each die seen but not read counts as a "?", so the caption holds every die seen
  const read = [...(reading.dice || []).map((d) => d.value ?? "?"),
    ...(reading.unread || []).map(() => "?")].join(" ");
  figure.append(h("figcaption", {}, `${t("frame.read")}: ${read}`));
  return figure;
}
