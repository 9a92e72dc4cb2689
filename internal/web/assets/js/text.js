// text.js prepares one row's text for display: the sanitized rendition
// when the core made one, the core's emphasis span carried over to it,
// syntax colours, and a cut for pathological line lengths.
//
// Offsets are UTF-16 code units throughout (what Row.emph is in and what
// JavaScript strings index), so the core's span is used as it is. When a
// hunk has a Display rendition (bidi, invisible and control characters
// escaped as "<U+202E>"), the row is shown from it and the span is mapped
// onto it by aligning the two strings: every character is equal except
// where the raw one became an escape.
import { tokenize } from './syntax.js';

// LIMIT is where a line is cut for display; the cut says how much is left.
export const LIMIT = 5000;

const ESCAPE = /<(?:U\+[0-9A-F]{4,6}|0x[0-9A-F]{2})>/y;

// rowText returns {text, emph, esc, rest} for row r of hunk h: the text to
// show, the emphasis span in it (or null), the escapes it contains as a
// flat [start, end, ...] array (null when none), and how many characters
// were cut off the end (0 when none).
export function rowText(h, r) {
  const row = h.rows[r];
  let text = row.text;
  let emph = row.emph && row.emph.end > row.emph.start ? row.emph : null;
  let esc = null;
  if (h.display && h.display[r] !== h.lines[r]) {
    let d = h.display[r].slice(1);
    if (row.kind === 'meta' && d.startsWith(' ')) d = d.slice(1);
    if (d.endsWith('\r')) d = d.slice(0, -1);
    const m = align(text, d);
    if (m) {
      esc = m.esc;
      if (emph) emph = { start: m.map[emph.start], end: m.map[emph.end] };
    } else {
      esc = findEscapes(d);
      emph = null;
    }
    text = d;
  }
  let rest = 0;
  if (text.length > LIMIT) {
    rest = text.length - LIMIT;
    text = text.slice(0, LIMIT);
    if (emph) emph = emph.start >= LIMIT ? null : { start: emph.start, end: Math.min(emph.end, LIMIT) };
  }
  return { text, emph, esc, rest };
}

// align maps raw onto its display rendition d: map[i] is where raw offset i
// lands in d (map[raw.length] = d.length) and esc lists the escapes. Null
// when d is not raw with escapes, so nothing is mapped by guesswork.
export function align(raw, d) {
  const map = new Int32Array(raw.length + 1);
  const esc = [];
  let i = 0;
  let j = 0;
  while (i < raw.length) {
    if (j < d.length && raw.charCodeAt(i) === d.charCodeAt(j)) {
      map[i++] = j++;
      continue;
    }
    ESCAPE.lastIndex = j;
    const m = ESCAPE.exec(d);
    if (!m) return null;
    const cp = raw.codePointAt(i);
    map[i] = j;
    if (cp > 0xffff) map[i + 1] = j;
    i += cp > 0xffff ? 2 : 1;
    esc.push(j, j + m[0].length);
    j += m[0].length;
  }
  if (j !== d.length) return null;
  map[raw.length] = j;
  return { map, esc };
}

function findEscapes(d) {
  const out = [];
  const re = /<(?:U\+[0-9A-F]{4,6}|0x[0-9A-F]{2})>/g;
  let m;
  while ((m = re.exec(d)) !== null) out.push(m.index, m.index + m[0].length);
  return out;
}

// paint appends text to parent as text nodes and spans: syntax classes
// (tok-k, tok-s...), "em" over the emphasis span, "esc" over escapes.
export function paint(parent, t, lang) {
  const { text, emph, esc } = t;
  // Escapes are tokenized as blanks, so no token boundary falls inside one.
  const toks = lang ? tokenize(esc ? blankEscapes(text, esc) : text, lang) : [];
  if (toks.length === 0 && !emph && !esc) {
    parent.textContent = text;
    return;
  }
  const cuts = [0, text.length];
  for (let k = 0; k < toks.length; k += 3) cuts.push(toks[k], toks[k + 1]);
  if (emph) cuts.push(emph.start, emph.end);
  if (esc) for (const x of esc) cuts.push(x);
  cuts.sort((a, b) => a - b);
  let tk = 0;
  let ek = 0;
  let prev = -1;
  for (let c = 0; c + 1 < cuts.length; c++) {
    const a = cuts[c];
    const b = cuts[c + 1];
    if (a === prev || a === b) continue;
    prev = a;
    while (tk < toks.length && toks[tk + 1] <= a) tk += 3;
    while (esc && ek < esc.length && esc[ek + 1] <= a) ek += 2;
    let cls = '';
    // An escape is not code: it takes no syntax colour.
    if (esc && ek < esc.length && esc[ek] <= a) cls = 'esc';
    else if (tk < toks.length && toks[tk] <= a) cls = 'tok-' + toks[tk + 2];
    if (emph && a >= emph.start && b <= emph.end) cls += ' em';
    const s = text.slice(a, b);
    if (cls) {
      const span = document.createElement('span');
      span.className = cls.trim();
      span.textContent = s;
      parent.appendChild(span);
    } else {
      parent.appendChild(document.createTextNode(s));
    }
  }
}

function blankEscapes(text, esc) {
  let out = '';
  let at = 0;
  for (let k = 0; k < esc.length; k += 2) {
    out += text.slice(at, esc[k]) + ' '.repeat(esc[k + 1] - esc[k]);
    at = esc[k + 1];
  }
  return out + text.slice(at);
}
