// syntax.js colours one line of code: keywords, literals, strings, numbers
// and comments, for common languages chosen by file extension. It reads a
// line on its own, with no memory of the lines above, so a string or a
// block comment that spans lines is coloured only on the line it starts
// (and a " * " continuation line of a C-style block comment is taken for
// a comment). That keeps every row independent, which the virtualized view
// needs, and keeps the cost linear in the line's length.

const C_LIKE = { line: ['//'], block: ['/*', '*/'], quotes: '"\'`', star: true };

function words(s) { return new Set(s.split(/\s+/).filter(Boolean)); }

const LANGS = {
  go: { ...C_LIKE, kw: words('break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var'),
    lit: words('true false nil iota') },
  js: { ...C_LIKE, kw: words('async await break case catch class const continue debugger default delete do else export extends finally for from function if import in instanceof let new of return static super switch this throw try typeof var void while with yield interface type enum implements private protected public readonly as declare'),
    lit: words('true false null undefined NaN Infinity') },
  py: { line: ['#'], block: null, quotes: '"\'', triple: true, kw: words('and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield match case'),
    lit: words('True False None self') },
  rb: { line: ['#'], block: null, quotes: '"\'', kw: words('alias and begin break case class def defined do else elsif end ensure for if in module next not or redo rescue retry return self super then undef unless until when while yield require'),
    lit: words('true false nil') },
  rs: { ...C_LIKE, quotes: '"', kw: words('as async await break const continue crate dyn else enum extern fn for if impl in let loop match mod move mut pub ref return self Self static struct super trait type unsafe use where while'),
    lit: words('true false None Some Ok Err') },
  c: { ...C_LIKE, quotes: '"\'', kw: words('auto break case char const continue default do double else enum extern float for goto if inline int long register restrict return short signed sizeof static struct switch typedef union unsigned void volatile while class namespace template typename public private protected virtual override new delete using try catch throw bool #include #define #ifdef #ifndef #endif #if #else #pragma'),
    lit: words('true false NULL nullptr this') },
  java: { ...C_LIKE, quotes: '"\'', kw: words('abstract assert break case catch class const continue default do else enum extends final finally for goto if implements import instanceof interface native new package private protected public return static super switch synchronized this throw throws transient try void volatile while var val fun object when is in override data sealed'),
    lit: words('true false null') },
  sh: { line: ['#'], block: null, quotes: '"\'', kw: words('if then else elif fi for while until do done case esac in function return local export readonly set unset shift exit break continue'),
    lit: words('true false') },
  json: { line: [], block: null, quotes: '"', kw: new Set(), lit: words('true false null') },
  yaml: { line: ['#'], block: null, quotes: '"\'', kw: new Set(), lit: words('true false null yes no on off') },
  toml: { line: ['#'], block: null, quotes: '"\'', kw: new Set(), lit: words('true false') },
  css: { line: [], block: ['/*', '*/'], quotes: '"\'', kw: words('@media @import @supports @keyframes @font-face !important'), lit: new Set() },
  sql: { line: ['--'], block: ['/*', '*/'], quotes: '\'"', ci: true, kw: words('select from where and or not insert into values update set delete create table index drop alter join left right inner outer on group by order having limit offset as distinct union all primary key foreign references null is in exists case when then else end begin commit rollback'),
    lit: words('true false') },
  html: { line: [], block: ['<!--', '-->'], quotes: '"\'', kw: new Set(), lit: new Set() },
};

const EXT = {
  go: 'go', js: 'js', mjs: 'js', cjs: 'js', jsx: 'js', ts: 'js', tsx: 'js', py: 'py', rb: 'rb', rs: 'rs',
  c: 'c', h: 'c', cc: 'c', cpp: 'c', cxx: 'c', hpp: 'c', hh: 'c', m: 'c', cs: 'java', java: 'java', kt: 'java',
  kts: 'java', scala: 'java', swift: 'rs', sh: 'sh', bash: 'sh', zsh: 'sh', json: 'json', yml: 'yaml', yaml: 'yaml',
  toml: 'toml', css: 'css', scss: 'css', sql: 'sql', html: 'html', htm: 'html', xml: 'html', svg: 'html', php: 'c',
};

// langFor returns the language of path, or null for none known.
export function langFor(path) {
  const base = path.slice(path.lastIndexOf('/') + 1);
  if (base === 'Makefile' || base === 'Dockerfile' || base.endsWith('.mk')) return LANGS.sh;
  const dot = base.lastIndexOf('.');
  if (dot < 0) return null;
  const l = EXT[base.slice(dot + 1).toLowerCase()];
  return l ? LANGS[l] : null;
}

function isIdentStart(c) {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36 || c === 35 || c === 64 || c > 127;
}
function isIdent(c) {
  return isIdentStart(c) || (c >= 48 && c <= 57);
}
function isDigit(c) { return c >= 48 && c <= 57; }

// tokenize returns the coloured spans of s as a flat array of triples
// start, end, class ('k' keyword, 'l' literal, 's' string, 'n' number,
// 'c' comment), in UTF-16 offsets, ordered and not overlapping.
export function tokenize(s, lang) {
  const out = [];
  if (!lang) return out;
  const n = s.length;
  let i = 0;
  if (lang.star) {
    let j = 0;
    while (j < n && (s.charCodeAt(j) === 32 || s.charCodeAt(j) === 9)) j++;
    if (s.charCodeAt(j) === 42 && (j + 1 === n || s[j + 1] === ' ' || s[j + 1] === '/')) {
      out.push(j, n, 'c');
      return out;
    }
  }
  while (i < n) {
    const c = s.charCodeAt(i);
    if (c === 32 || c === 9) { i++; continue; }
    for (const p of lang.line) {
      if (s.startsWith(p, i)) { out.push(i, n, 'c'); return out; }
    }
    if (lang.block && s.startsWith(lang.block[0], i)) {
      const e = s.indexOf(lang.block[1], i + lang.block[0].length);
      const end = e < 0 ? n : e + lang.block[1].length;
      out.push(i, end, 'c');
      i = end;
      continue;
    }
    if (lang.quotes.indexOf(s[i]) >= 0) {
      const q = s[i];
      if (lang.triple && s.startsWith(q + q + q, i)) {
        const e = s.indexOf(q + q + q, i + 3);
        const end = e < 0 ? n : e + 3;
        out.push(i, end, 's');
        i = end;
        continue;
      }
      let j = i + 1;
      while (j < n && s[j] !== q) j += s[j] === '\\' && q !== '`' ? 2 : 1;
      const end = Math.min(n, j + 1);
      out.push(i, end, 's');
      i = end;
      continue;
    }
    if (isDigit(c) && (i === 0 || !isIdent(s.charCodeAt(i - 1)))) {
      let j = i + 1;
      while (j < n && (isIdent(s.charCodeAt(j)) || s[j] === '.')) j++;
      out.push(i, j, 'n');
      i = j;
      continue;
    }
    if (isIdentStart(c)) {
      let j = i + 1;
      while (j < n && isIdent(s.charCodeAt(j))) j++;
      let w = s.slice(i, j);
      if (lang.ci) w = w.toLowerCase();
      if (lang.kw.has(w)) out.push(i, j, 'k');
      else if (lang.lit.has(w)) out.push(i, j, 'l');
      i = j;
      continue;
    }
    i++;
  }
  return out;
}
