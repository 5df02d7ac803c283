// The page's words in English and German: the phone's language, or the one picked with the
// switch (remembered in localStorage). Texts live in ../i18n/<lang>.json.
const LANGS = ["en", "de"];
const KEY = "dicetray.lang";
let words = {};
let current = "en";

export function pickLanguage() {
  const saved = localStorage.getItem(KEY);
  if (LANGS.includes(saved)) return saved;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGS.includes(base)) return base;
  }
  return "en";
}

export async function loadLanguage(lang) {
  const url = new URL(`../i18n/${lang}.json`, import.meta.url);
  const response = await fetch(url);
  words = await response.json();
  current = lang;
  document.documentElement.lang = lang;
}

export function lang() {
  return current;
}

export function otherLanguage() {
  return LANGS[(LANGS.indexOf(current) + 1) % LANGS.length];
}

export function remember(lang) {
  localStorage.setItem(KEY, lang);
}

export function has(key) {
  return key in words;
}

// What the tray says went wrong, in the page's language: the words for its code where this
// language has them, else the tray's own (English) message.
export function said(code, message) {
  const key = `said.${code}`;
  return code && current !== "en" && has(key) ? t(key) : message;
}

// t("turn.whose", {name: "Ann"}) -> "Ann's turn"; a missing key shows itself, never blank
export function t(key, vars = {}) {
  const text = words[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in vars ? String(vars[name]) : `{${name}}`));
}

export function applyWords(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) {
    el.textContent = t(el.dataset.i18n);
  }
}

// a name from a {en, de} map in the page's language
export function pick(names, fallback = "") {
  if (!names) return fallback;
  return names[current] || names.en || fallback;
}
