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

// An event type as a player reads it, its ruleset's key left off: "downtown.SamReacted"
// -> "SAM reacted" when "SAM" is one of the ruleset's `capitals` (acronyms below),
// "DiceRolled" -> "Dice rolled", "nightfighter.AISearched" -> "AI searched". A type that
// is not one CamelCase name is said by inWords. Display only: the row keeps the exact type
// (its title and data-type). The terminal's rule is the same (events/rules_words.py
// type_in_words): tests/data/type_words.json holds the cases both are tested on.
const CAMEL = /^[A-Za-z][A-Za-z0-9]*$/;
// A run of capitals before a capitalised word, a digit or the end ("AISearched" -> "AI",
// "Searched"), else a capitalised (or lowercase) word with its digits, else digits.
const CAMEL_WORD = /[A-Z]+(?=[A-Z][a-z]|[0-9]|$)|[A-Z]?[a-z]+[0-9]*|[0-9]+/g;
export function typeInWords(eventType, capitals = []) {
  const name = eventType.slice(eventType.lastIndexOf(".") + 1);
  if (!CAMEL.test(name)) return inWords(name);
  const known = new Set(capitals);
  const words = (name.match(CAMEL_WORD) || []).map((word) => {
    const upper = word.toUpperCase();
    return known.has(upper) || (word.length > 1 && /^[A-Z]+$/.test(word)) ? upper : word.toLowerCase();
  });
  const said = termsSaid(words, capitals).join(" ");
  return said.slice(0, 1).toUpperCase() + said.slice(1);
}

// `words` with every run that is one of the capitals' terms said as the term ("fire",
// "can" -> "Fire", "Can"), the longest term first (rules_words.py _said).
function termsSaid(words, capitals) {
  const terms = [...capitals].filter((t) => t.includes(" ")).map((t) => t.split(" "))
    .sort((a, b) => b.length - a.length);
  const out = [...words];
  for (let i = 0; i < out.length; i += 1) {
    for (const term of terms) {
      const run = out.slice(i, i + term.length).map((w) => w.toLowerCase());
      if (run.length === term.length && run.every((w, k) => w === term[k].toLowerCase())) {
        out.splice(i, term.length, ...term);
        i += term.length - 1;
        break;
      }
    }
  }
  return out;
}

// An event's kind in words: its type (typeInWords), except a decision that names its topic
// (a `topic` field: Downtown's DecisionMade, whose type says only "Decision made"), said by
// what it decided: the topic in words with the ruleset's capitals ("sam_placement" ->
// "SAM placement"). The terminal's rule is the same (events/rules_words.py kind_in_words).
const TOPIC = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;
export function kindInWords(eventType, payload, capitals = []) {
  const topic = payload && typeof payload === "object" ? payload.topic : undefined;
  if (typeof topic !== "string" || !TOPIC.test(topic)) return typeInWords(eventType, capitals);
  const known = new Set(capitals);
  const words = topic.split("_").map((w) => (known.has(w.toUpperCase()) ? w.toUpperCase() : w));
  const said = termsSaid(words, capitals).join(" ");
  return said.slice(0, 1).toUpperCase() + said.slice(1);
}

// The words a ruleset writes in capitals in its title and view labels (its /rulesets.json
// `entry`: `title`, `labels`, `value_labels`), for typeInWords: Downtown's AAA, DRV, SAM,
// US. No entry (the list not read yet, a ruleset not installed): none.
const ACRONYM = /\b[A-Z]{2,}\b/g;
export function acronyms(entry) {
  const found = new Set();
  if (!entry) return found;
  const texts = [entry.title || "", ...Object.values(entry.labels || {})];
  for (const named of Object.values(entry.value_labels || {})) texts.push(...Object.values(named || {}));
  for (const text of texts) for (const word of String(text).match(ACRONYM) || []) found.add(word);
  for (const term of terms(entry.labels || {})) found.add(term);
  return found;
}

// A field's label that spells its key's first words in Title Case names a term of the
// rules ("fire_can_range": "Fire Can range" -> "Fire Can"), two words at least
// (rules_words.py _terms).
function terms(labels) {
  const found = [];
  for (const [key, label] of Object.entries(labels)) {
    const parts = key.split("_");
    const said = String(label).split(" ");
    const words = said.slice(0, parts.length).filter((w) => w.length > 1 && w.slice(1) === w.slice(1).toLowerCase() && /[a-z]/.test(w.slice(1)));
    let run = 0;
    for (let k = 0; k < Math.min(words.length, parts.length); k += 1) {
      if (words[k] !== parts[k].slice(0, 1).toUpperCase() + parts[k].slice(1)) break;
      run += 1;
    }
    if (run >= 2 && said.slice(0, run).every((w, k) => w === words[k])) found.push(said.slice(0, run).join(" "));
  }
  return found;
}
