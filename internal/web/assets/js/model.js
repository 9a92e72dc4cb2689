// model.js turns a changeset into the flat item index the diff view
// scrolls through. Coordinates, and how they convert:
//   - f: file index in changeset.files;
//   - g: global hunk number across files; hunkBase[f] is file f's first;
//   - r: row index within a hunk (Hunk.rows, parallel to Hunk.lines);
//   - global row: rowBase[g] + r, numbering every row of the change;
//   - item: position in the Layout; top[item] is its offset in row units
//     (a diff line is one unit, so pixels are units * row height).
// An item is never an anchor: comments and the cursor are kept as path,
// side and line, and mapped to items each time a Layout is built.

export const FILE = 1;
export const HUNK = 2;
export const LINE = 3;
export const NOTE = 4;
export const COMMENT = 5;
export const EDITOR = 6;

// Units of the non-line items.
const FILE_UNITS = 2;
export const EDITOR_UNITS = 8;
const COMMENT_MAX_BODY = 24;
const COMMENT_WRAP = 96;

// Changes is what the page derives once per changeset: numbering and
// lookups. The changeset itself is kept as parsed and never modified.
export class Changes {
  constructor(cs) {
    this.digest = cs.digest;
    this.source = cs.source || {};
    this.files = cs.files || [];
    const nf = this.files.length;
    this.hunkBase = new Int32Array(nf + 1);
    let g = 0;
    for (let f = 0; f < nf; f++) {
      this.hunkBase[f] = g;
      g += (this.files[f].hunks || []).length;
    }
    this.hunkBase[nf] = g;
    this.hunkCount = g;
    this.hunkFile = new Int32Array(g);
    this.rowBase = new Int32Array(g + 1);
    this.pathIndex = new Map();
    let rows = 0;
    let maxCols = 0;
    let adds = 0;
    let dels = 0;
    for (let f = 0; f < nf; f++) {
      const file = this.files[f];
      this.pathIndex.set(file.path, f);
      adds += file.additions;
      dels += file.deletions;
      const hs = file.hunks || [];
      for (let h = 0; h < hs.length; h++) {
        const gi = this.hunkBase[f] + h;
        this.hunkFile[gi] = f;
        this.rowBase[gi] = rows;
        const rs = hs[h].rows;
        rows += rs.length;
        for (let r = 0; r < rs.length; r++) {
          if (rs[r].text.length > maxCols) maxCols = rs[r].text.length;
        }
      }
    }
    this.rowBase[g] = rows;
    this.rowCount = rows;
    this.maxCols = maxCols;
    this.additions = adds;
    this.deletions = dels;
  }

  hunk(g) {
    const f = this.hunkFile[g];
    return this.files[f].hunks[g - this.hunkBase[f]];
  }

  // findLine returns {f, g, r} of the row showing line on side ("old" or
  // "new") of path, or null.
  findLine(path, side, line) {
    const f = this.pathIndex.get(path);
    if (f === undefined) return null;
    const hs = this.files[f].hunks || [];
    for (let h = 0; h < hs.length; h++) {
      const rs = hs[h].rows;
      for (let r = 0; r < rs.length; r++) {
        const row = rs[r];
        if (side === 'old' ? row.old_line === line && row.kind !== 'add' : row.new_line === line && row.kind !== 'del') {
          return { f, g: this.hunkBase[f] + h, r };
        }
      }
    }
    return null;
  }
}

// rowSide is the side a remark on row is about: a deleted line's old side,
// an added line's new side, and for a context line pref (the side the
// reader is on; new in the unified view). Same rule as the terminal.
export function rowSide(row, pref) {
  if (row.kind === 'del') return 'old';
  if (row.kind === 'add') return 'new';
  if (row.kind === 'meta' && row.new_line == null) return 'old';
  return pref;
}

// sideLine is row's line number on side, or null.
export function sideLine(row, side) {
  return side === 'old' ? row.old_line : row.new_line;
}

// commentUnits is the height of a comment block in row units: a heading
// and the body's lines, long lines counted as wrapped, capped (a longer
// body scrolls inside its block).
export function commentUnits(body) {
  let n = 0;
  for (const l of body.split('\n')) n += Math.max(1, Math.ceil(l.length / COMMENT_WRAP));
  return 2 + Math.min(n, COMMENT_MAX_BODY);
}

// Layout is the flat index of one view of a change. Arrays are indexed by
// item; top has n+1 entries, top[n] being the total height in units.
export class Layout {
  constructor(cap, ch, split) {
    this.ch = ch;
    this.split = split;
    this.n = 0;
    this.kind = new Uint8Array(cap);
    this.file = new Int32Array(cap);
    this.hunk = new Int32Array(cap);
    this.a = new Int32Array(cap);
    this.b = new Int32Array(cap);
    this.top = new Float64Array(cap + 1);
    this.rowItem = new Int32Array(ch.rowCount);
    this.fileItem = new Int32Array(ch.files.length);
    this.hunkItem = new Int32Array(ch.hunkCount);
    // drafts are the drafts COMMENT items index (item a).
    this.drafts = [];
  }

  push(kind, f, g, a, b, units) {
    const i = this.n++;
    this.kind[i] = kind;
    this.file[i] = f;
    this.hunk[i] = g;
    this.a[i] = a;
    this.b[i] = b;
    this.top[i + 1] = this.top[i] + units;
    return i;
  }

  // itemAtUnit returns the item covering offset u (row units).
  itemAtUnit(u) {
    let lo = 0;
    let hi = this.n - 1;
    if (hi < 0) return -1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.top[mid] <= u) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  // row returns the changeset row of a LINE item on its left (a) or right
  // (b) half; the unified view uses a.
  row(i, right) {
    const r = right ? this.b[i] : this.a[i];
    if (r < 0) return null;
    return this.ch.hunk(this.hunk[i]).rows[r];
  }

  // posOf is item i as a position that survives a rebuild.
  posOf(i) {
    if (i < 0 || i >= this.n) return null;
    const k = this.kind[i];
    if (k === FILE || k === NOTE) return { f: this.file[i], g: -1, r: -1 };
    const g = this.hunk[i];
    if (k === HUNK) return { f: this.file[i], g, r: -1 };
    return { f: this.file[i], g, r: this.a[i] >= 0 ? this.a[i] : this.b[i] };
  }

  // itemOf maps a position back to an item of this layout.
  itemOf(pos) {
    if (!pos) return -1;
    if (pos.g < 0) return pos.f < this.fileItem.length ? this.fileItem[pos.f] : -1;
    if (pos.r < 0) return this.hunkItem[pos.g];
    return this.rowItem[this.ch.rowBase[pos.g] + pos.r];
  }

  // focusable reports whether the keyboard cursor can rest on item i: a
  // diff line or a file heading, as in the terminal.
  focusable(i) {
    const k = this.kind[i];
    return k === LINE || k === FILE;
  }

  // step returns the next focusable item from i in direction dir (+1/-1),
  // or i when there is none.
  step(i, dir) {
    for (let j = i + dir; j >= 0 && j < this.n; j += dir) {
      if (this.focusable(j)) return j;
    }
    return i;
  }

  // changed reports whether LINE item i shows an added or deleted row.
  changed(i) {
    if (this.kind[i] !== LINE) return false;
    const l = this.row(i, false);
    const r = this.split ? this.row(i, true) : null;
    return (l && (l.kind === 'add' || l.kind === 'del')) || (r !== null && r.kind === 'add');
  }

  // nextChange returns the first changed line of the next (dir +1) or
  // previous (dir -1) run of changed lines, or i.
  nextChange(i, dir) {
    let j = i;
    if (dir > 0) {
      while (j < this.n && this.changed(j)) j++;
      while (j < this.n && !this.changed(j)) j++;
      return j < this.n ? j : i;
    }
    j = i - 1;
    while (j >= 0 && !this.changed(j)) j--;
    if (j < 0) return i;
    while (j > 0 && this.changed(j - 1)) j--;
    return j;
  }
}

// buildLayout lays a change out for the unified (split false) or split
// view. drafts are placed drafts (state.drafts with a location); they sit
// under the row showing their last line. editor, when not null, is
// {path, side, line} and sits under that row too, after its comments.
export function buildLayout(ch, split, drafts, editor) {
  const attach = attachments(ch, drafts, editor);
  const cap = ch.rowCount + ch.hunkCount + 2 * ch.files.length + drafts.length + 2;
  const L = new Layout(cap, ch, split);
  L.drafts = drafts;
  for (let f = 0; f < ch.files.length; f++) {
    const file = ch.files[f];
    L.fileItem[f] = L.push(FILE, f, -1, -1, -1, FILE_UNITS);
    const hs = file.hunks || [];
    if (hs.length === 0) L.push(NOTE, f, -1, -1, -1, 1);
    const fa = attach.get(f);
    for (let h = 0; h < hs.length; h++) {
      const g = ch.hunkBase[f] + h;
      L.hunkItem[g] = L.push(HUNK, f, g, -1, -1, 1);
      if (split) splitRows(L, ch, f, g, hs[h].rows, fa);
      else unifiedRows(L, ch, f, g, hs[h].rows, fa);
    }
  }
  return L;
}

function unifiedRows(L, ch, f, g, rows, fa) {
  const base = ch.rowBase[g];
  for (let r = 0; r < rows.length; r++) {
    L.rowItem[base + r] = L.push(LINE, f, g, r, -1, 1);
    if (fa) attachAfter(L, f, g, fa, rows[r], true, true);
  }
}

// splitRows pairs each run of deleted rows with the added rows after it,
// side by side; context rows face themselves.
function splitRows(L, ch, f, g, rows, fa) {
  const base = ch.rowBase[g];
  let left = [];
  let right = [];
  const flush = () => {
    const n = Math.max(left.length, right.length);
    for (let k = 0; k < n; k++) {
      const a = k < left.length ? left[k] : -1;
      const b = k < right.length ? right[k] : -1;
      const i = L.push(LINE, f, g, a, b, 1);
      if (a >= 0) L.rowItem[base + a] = i;
      if (b >= 0) L.rowItem[base + b] = i;
      if (fa) {
        if (a >= 0) attachAfter(L, f, g, fa, rows[a], true, false);
        if (b >= 0) attachAfter(L, f, g, fa, rows[b], false, true);
      }
    }
    left = [];
    right = [];
  };
  for (let r = 0; r < rows.length; r++) {
    const k = rows[r].kind;
    if (k === 'del') {
      if (right.length) flush();
      left.push(r);
    } else if (k === 'add') {
      right.push(r);
    } else if (k === 'meta' && right.length) {
      right.push(r);
    } else if (k === 'meta' && left.length) {
      left.push(r);
    } else {
      flush();
      const i = L.push(LINE, f, g, r, r, 1);
      L.rowItem[base + r] = i;
      if (fa) attachAfter(L, f, g, fa, rows[r], true, true);
    }
  }
  flush();
}

function attachAfter(L, f, g, fa, row, old, neu) {
  if (old && row.old_line != null && row.kind !== 'add') emitAttached(L, f, g, fa.old.get(row.old_line));
  if (neu && row.new_line != null && row.kind !== 'del') emitAttached(L, f, g, fa.new.get(row.new_line));
}

function emitAttached(L, f, g, list) {
  if (!list) return;
  for (const x of list) {
    if (x.editor) L.push(EDITOR, f, g, -1, -1, EDITOR_UNITS);
    else L.push(COMMENT, f, g, x.index, -1, x.units);
  }
}

// attachments groups drafts (and the editor) by file, side and last line.
function attachments(ch, drafts, editor) {
  const m = new Map();
  const add = (path, side, line, x) => {
    const f = ch.pathIndex.get(path);
    if (f === undefined) return;
    let fa = m.get(f);
    if (!fa) {
      fa = { old: new Map(), new: new Map() };
      m.set(f, fa);
    }
    const byLine = side === 'old' ? fa.old : fa.new;
    const list = byLine.get(line);
    if (list) list.push(x);
    else byLine.set(line, [x]);
  };
  drafts.forEach((d, index) => {
    const loc = d.location;
    if (!loc) return;
    add(loc.path, loc.side, loc.end_line || loc.start_line, { index, units: commentUnits(d.body) });
  });
  if (editor) add(editor.path, editor.side, editor.line, { editor: true });
  return m;
}
