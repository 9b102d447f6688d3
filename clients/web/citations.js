// Citations as people read them: "Downtown solo rules 3.2.1 (SAM Activation Check)" for
// "000_842c81c5c58bc2f6.txt 3.2.1". The same rule as engine/citations.py, on the data it
// writes to citations.json (each seed's title and headings by rule number). Display only:
// the events keep the seed's file name.
let seeds = {};

export async function loadCitations(url = "citations.json") {
  const response = await fetch(url);
  if (response.ok) seeds = await response.json();
}

// The heading of rule `number`, or of the nearest rule above it ("3.2.5" -> "3"; "S5.3" -> "S5.0").
function heading(titles, number) {
  const parts = number.split(".");
  for (let n = parts.length; n > 0; n -= 1) {
    const key = parts.slice(0, n).join(".");
    const found = titles[key] || titles[`${key}.0`];
    if (found) return found;
  }
  return "";
}

export function readable(text) {
  if (!text) return text;
  const seedFile = /\b\d{3}_[0-9a-f]{16}\.txt\b/g;
  let out = "";
  let at = 0;
  let match;
  while ((match = seedFile.exec(text))) {
    out += text.slice(at, match.index);
    at = match.index + match[0].length;
    const known = seeds[match[0]];
    if (!known) {
      out += match[0];
      continue;
    }
    out += known.title;
    const number = /^ (S?\d+(?:\.\d+)*)\b/.exec(text.slice(at));
    if (!number) continue;
    out += number[0];
    at += number[0].length;
    const title = heading(known.headings, number[1]);
    if (title && !text.slice(at).replace(/^[ ,:]+/, "").startsWith(title)) out += ` (${title})`;
  }
  return inWords(out + text.slice(at));
}

// A key the rules wrote into their own words (an enum's name: "loses searchlight_fix"),
// said in words ("searchlight fix"), as the state pane says an unlabelled value. The
// events keep the rules' text as it was decided: this is display only. (A seed file's
// name starts with a digit and is said by its title above.) The terminal says them by the
// same rule (events/rules_words.py in_words): tests/data/in_words.json holds the cases
// both are tested on.
const KEY = /\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g;
export function inWords(text) {
  return text.replace(KEY, (key) => key.replace(/_/g, " "));
}
