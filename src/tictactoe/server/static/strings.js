// The page's translated strings, rendered from the same catalogs as the HTML and keyed by the English
// source text: a JSON blob in the page, or (the table page) `self.pageStrings`, set by a script of
// their own that runs before the modules. `t("{mark} to move", {mark: "X"})` fills placeholders.
const blob = document.getElementById("strings");
const strings = blob ? JSON.parse(blob.textContent) : (self.pageStrings ?? {});

// On a right-to-left page every filled-in value (a mark, a cell name, a number, a name) is wrapped
// in Unicode isolates (FSI … PDI), so that "X", "e5" or "+2" keep their own direction and do not
// reorder the words around them: «لعب X في e5» reads as written.
const isolate = document.documentElement.dir === "rtl"
  ? (value) => `\u2068${value}\u2069` : (value) => `${value}`;

export function t(key, values = {}) {
  let text = strings[key];
  if (text === undefined) {
    // A key the template forgot to render would show English on a translated page: make it loud.
    console.error(`untranslatable string: ${key}`);
    text = key;
  }
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? isolate(values[name]) : whole));
}

// Numbers as the page's language writes them (its decimal sign: 0,5 in most of them), in the
// Latin digits the board's cell names and the server's pages (Babel's default) use too.
export const numberFormat = (options = {}) =>
  new Intl.NumberFormat(document.documentElement.lang, { numberingSystem: "latn", ...options });
