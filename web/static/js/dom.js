// Small DOM helpers shared by the pages, and the page frame: language switch, banner.
import { applyWords, loadLanguage, otherLanguage, pickLanguage, remember } from "./i18n.js";

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

const SVG = "http://www.w3.org/2000/svg";
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined) el.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export const $ = (selector, root = document) => root.querySelector(selector);

let bannerTimer = null;
export function banner(text, kind = "error") {
  const el = $("#banner");
  el.textContent = text;
  el.dataset.kind = kind;
  el.hidden = false;
  clearTimeout(bannerTimer);
  bannerTimer = setTimeout(() => (el.hidden = true), kind === "error" ? 6000 : 3000);
}

export function hideBanner() {
  $("#banner").hidden = true;
}

// Load the words, wire the language switch; onChange re-renders what the page drew itself.
export async function frame(onChange = () => {}) {
  await loadLanguage(pickLanguage());
  applyWords();
  const button = $("#lang");
  const label = () => {
    button.textContent = otherLanguage().toUpperCase();
  };
  label();
  button.addEventListener("click", async () => {
    const next = otherLanguage();
    remember(next);
    await loadLanguage(next);
    applyWords();
    label();
    onChange();
  });
}
