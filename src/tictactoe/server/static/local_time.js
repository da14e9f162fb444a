// Times written by the server (in UTC) shown in the viewer's own time zone, in the page's language
// (with the Latin digits of the rest of the site, Arabic pages included).
const format = new Intl.DateTimeFormat(document.documentElement.lang || undefined,
  { dateStyle: "medium", timeStyle: "short", numberingSystem: "latn" });
for (const el of document.querySelectorAll("time[data-local-time]")) {
  const when = new Date(el.dateTime);
  if (!Number.isNaN(when.getTime())) el.textContent = format.format(when);
}
