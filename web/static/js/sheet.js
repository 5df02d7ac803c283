// A rule set's sheet as the page draws it (box names, sections, columns), from
// /sheet/<ruleset>.json; fetched once per rule set.
const cache = new Map();

export function layoutOf(ruleset) {
  if (!cache.has(ruleset)) {
    const promise = fetch(`/sheet/${encodeURIComponent(ruleset).replace(/%2B/g, "+")}.json`)
      .then((r) => (r.ok ? r.json() : null))
      .catch(() => null);
    cache.set(ruleset, promise);
  }
  return cache.get(ruleset);
}

// where the upper section stands against three of each face ("6 up"): only filled boxes count
export function parOf(layout, entries, column) {
  let diff = 0;
  let counted = 0;
  for (const entry of entries) {
    if (entry.column !== column || !entry.box) continue;
    const box = layout.boxes.find((b) => b.id === entry.box);
    if (!box || box.section !== "upper" || typeof box.params?.face !== "number") continue;
    diff += entry.points - 3 * box.params.face;
    counted += 1;
  }
  return counted ? diff : null;
}
