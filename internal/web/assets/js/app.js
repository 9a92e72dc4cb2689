// app.js holds one review on the page: the changeset (fetched once and
// kept), the review state (fetched again on every event), the layout the
// diff view scrolls, the page's own focus, and the actions every control
// and key leads to. It renders through VirtualList (view.js) and rows.js.
import { Changes, buildLayout, FILE, HUNK, LINE, EDITOR, rowSide, sideLine } from './model.js';
import { VirtualList } from './view.js';
import { renderItem } from './rows.js';
import { Sidebar } from './sidebar.js';
import { Editor } from './editor.js';
import { toast, banner, message } from './notify.js';
import { langFor } from './syntax.js';
import { LIMIT } from './text.js';
import { el } from './dom.js';
import { bindInput } from './input.js';

// cursorKey names a cursor for comparison ({path, side, line, hunk}).
function cursorKey(c) {
  return `${c.path}\n${c.side || ''}\n${c.line || 0}\n${c.hunk}`;
}

function cssPx(name, fallback) {
  const v = parseFloat(getComputedStyle(document.documentElement).getPropertyValue(name));
  return Number.isFinite(v) && v > 0 ? v : fallback;
}

export class App {
  constructor(session) {
    this.api = session;
    this.ch = null;
    this.layout = null;
    this.state = null;
    this.viewed = new Set();
    this.placed = [];
    this.fileDraftCount = new Map();
    this.draftSig = null;
    this.split = localStorage.getItem('leanreview.split') === '1';
    // The page's own focus: an item, the position it stands for (kept
    // across rebuilds) and, in the split view, the side.
    this.focus = -1;
    this.focusPos = null;
    this.focusSide = 'new';
    // sel is a line range being selected: {from, to} positions and side.
    this.sel = null;
    // The human's shared cursor as the state reports it.
    this.cursorItem = -1;
    this.cursorSide = 'new';
    this.remoteKey = '';
    this.sent = [];
    this.cursorBusy = false;
    this.cursorDirty = false;
    this.follow = true;
    this.editor = null;
    this.stale = '';
    this.stateBusy = false;
    this.stateDirty = false;
    this.langs = [];
    this.crumbFile = -1;
  }

  // start loads the review and shows it.
  async start() {
    const [{ cs }, st] = await Promise.all([this.api.changeset(), this.api.state()]);
    this.setChangeset(cs);
    this.rowH = cssPx('--row-h', 20);
    this.charW = this.measureChar();
    this.diffEl = document.getElementById('diff');
    this.list = new VirtualList(this.diffEl, {
      rowHeight: this.rowH, overscan: 10, render: (i) => renderItem(this, i), onRender: (first) => this.onRender(first),
    });
    // Diagnostics for scripts/web-bench: render counts and times.
    window.leanreviewStats = this.list.stats;
    this.sidebar = new Sidebar(this);
    this.sidebar.setFiles();
    document.getElementById('source').textContent = st.source.label || st.source.key;
    document.title = `${st.source.label || st.source.key} · leanreview`;
    this.applyState(st, true);
    performance.mark('lr:indexed');
    this.showView();
    bindInput(this);
    this.openEvents();
    performance.mark('lr:rendered');
    requestAnimationFrame(() => requestAnimationFrame(() => {
      performance.mark('lr:first-rows');
      document.body.dataset.state = 'ready';
    }));
  }

  measureChar() {
    const probe = el('span', { class: 'code measure', text: 'x'.repeat(100) });
    document.body.appendChild(probe);
    const w = probe.getBoundingClientRect().width / 100;
    probe.remove();
    return w || 8;
  }

  setChangeset(cs) {
    this.ch = new Changes(cs);
    this.api.asOf = cs.digest;
    this.langs = new Array(this.ch.files.length);
  }

  langOf(f) {
    if (this.langs[f] === undefined) this.langs[f] = langFor(this.ch.files[f].path);
    return this.langs[f];
  }

  // --- review state ---------------------------------------------------

  // applyState shows st. A state as of another changeset is not applied:
  // its drafts are placed against lines this page does not show.
  applyState(st, first = false) {
    if (st.as_of !== this.ch.digest) {
      this.markStale('reloaded');
      return;
    }
    this.state = st;
    this.viewed = new Set(st.viewed);
    this.placed = st.drafts.filter((d) => d.location && d.status !== 'orphaned');
    this.fileDraftCount = new Map();
    for (const d of this.placed) this.fileDraftCount.set(d.location.path, (this.fileDraftCount.get(d.location.path) || 0) + 1);
    const sig = JSON.stringify(this.placed.map((d) => [d.id, d.body, d.location, d.status, d.resolved, d.author]));
    if (first || sig !== this.draftSig) {
      this.draftSig = sig;
      this.rebuild();
    } else {
      this.locateCursor();
      this.list.refresh();
    }
    this.sidebar.update();
    this.remoteCursor(st.cursor, first);
    this.cursorInfo();
  }

  // refreshState fetches the state again, one request at a time: events
  // arriving meanwhile cost one more fetch, not one each.
  async refreshState() {
    if (this.stateBusy) {
      this.stateDirty = true;
      return;
    }
    this.stateBusy = true;
    try {
      do {
        this.stateDirty = false;
        const st = await this.api.state();
        this.applyState(st);
      } while (this.stateDirty);
    } catch (err) {
      this.fail(err);
    } finally {
      this.stateBusy = false;
    }
  }

  openEvents() {
    const live = document.getElementById('live');
    this.api.events((kind, asOf) => {
      if (kind === 'reloaded' || kind === 'stale') {
        this.markStale(kind);
        return;
      }
      if (asOf && asOf !== this.ch.digest) {
        this.markStale('reloaded');
        return;
      }
      this.refreshState();
    }, (open) => {
      live.textContent = open ? 'live' : 'offline';
      live.classList.toggle('on', open);
    });
  }

  // markStale tells the reader the change moved and offers a reload.
  markStale(kind) {
    if (this.stale === 'stale' && kind !== 'stale') return;
    this.stale = kind;
    const text = kind === 'stale'
      ? 'The source changed on disk since this page loaded. What you see is out of date.'
      : 'The change was reloaded since this page loaded (the patch moved). What you see is out of date, and writes are refused until you reload.';
    banner(text, { label: 'Reload', run: () => this.reloadAll() });
  }

  // reloadAll reads the change and the state again, keeping the focus on
  // the same line when it is still there.
  async reloadAll() {
    const at = this.focusCursor();
    try {
      if (this.stale === 'stale') await this.api.reload();
      const [{ cs }, st] = await Promise.all([this.api.changeset(), this.api.state()]);
      this.setChangeset(cs);
      this.stale = '';
      banner(null);
      this.editor = null;
      this.sel = null;
      this.focusPos = null;
      this.sidebar.setFiles();
      this.applyState(st, true);
      if (at) this.jumpTo(at, false);
    } catch (err) {
      this.fail(err);
    }
  }

  // fail reports a failed request in the way it calls for.
  fail(err) {
    if (err && err.code === 'stale') {
      this.markStale('reloaded');
    } else if (err && err.status === 401) {
      message('Logged out', 'The daemon no longer knows this browser (it restarted, or the login expired). Run ',
        el('code', { text: 'leanreview serve --open' }), ' and open the link it prints.');
    } else {
      toast(err && err.message ? err.message : String(err), null, 'error');
    }
  }

  // --- layout ---------------------------------------------------------

  // rebuild lays the change out again (view switched, drafts moved, the
  // editor opened), keeping the line at the top of the screen in place.
  rebuild() {
    const keep = this.layout ? this.topPos() : null;
    const editing = this.editor && this.editor.draft ? this.editor.draft.id : '';
    const drafts = editing ? this.placed.filter((d) => d.id !== editing) : this.placed;
    const hadEditorFocus = this.editor && this.editor.hasFocus();
    const L = buildLayout(this.ch, this.split, drafts, this.editor ? this.editor.anchor : null);
    this.layout = L;
    this.focus = this.focusPos ? L.itemOf(this.focusPos) : -1;
    if (this.focus < 0 && L.n) this.focus = 0;
    this.locateCursor();
    this.list.setModel(L.n, L.top, this.contentWidth());
    if (keep) {
      const i = L.itemOf(keep.pos);
      if (i >= 0) this.list.setVirtualTop(L.top[i] * this.rowH + keep.offset);
    }
    if (hadEditorFocus) this.editor.focus();
  }

  contentWidth() {
    const cols = Math.min(this.ch.maxCols, LIMIT + 80);
    const gutter = cssPx('--gutter', 120);
    const code = cols * this.charW + 48;
    if (!this.split) return gutter + code;
    const half = this.list.viewW / 2 - gutter / 2;
    return this.list.viewW + Math.max(0, code - half);
  }

  // topPos is the first line or heading on screen as a position, with how
  // far the screen's top is below it in pixels.
  topPos() {
    const L = this.layout;
    let [i] = this.list.range();
    while (i < L.n && L.kind[i] !== FILE && L.kind[i] !== HUNK && L.kind[i] !== LINE) i++;
    if (i >= L.n) return null;
    return { pos: L.posOf(i), offset: this.list.virtualTop() - L.top[i] * this.rowH };
  }

  onRender(first) {
    const f = this.layout.n ? this.layout.file[first] : -1;
    if (f === this.crumbFile) return;
    this.crumbFile = f;
    document.getElementById('crumb').textContent = f >= 0 ? this.ch.files[f].path : '';
  }

  showView() {
    document.getElementById('view-unified').setAttribute('aria-pressed', String(!this.split));
    document.getElementById('view-split').setAttribute('aria-pressed', String(this.split));
    document.body.classList.toggle('split-view', this.split);
  }

  setSplit(split) {
    if (split === this.split) return;
    this.split = split;
    localStorage.setItem('leanreview.split', split ? '1' : '0');
    this.showView();
    this.rebuild();
  }

  // --- counts ---------------------------------------------------------

  fileProgress(f) {
    const hs = this.ch.files[f].hunks || [];
    let viewed = 0;
    for (const h of hs) if (this.viewed.has(h.digest)) viewed++;
    return { viewed, total: hs.length };
  }

  fileDrafts(f) { return this.fileDraftCount.get(this.ch.files[f].path) || 0; }

  viewedHunks() {
    let n = 0;
    for (let g = 0; g < this.ch.hunkCount; g++) if (this.viewed.has(this.ch.hunk(g).digest)) n++;
    return n;
  }

  // --- focus and the shared cursor ------------------------------------

  // rowAt is the changeset row item i shows on side (split view), or its
  // only row (unified view).
  rowAt(i, side) {
    const L = this.layout;
    if (!L.split) return L.row(i, false);
    return (side === 'old' ? L.row(i, false) : L.row(i, true)) || L.row(i, false) || L.row(i, true);
  }

  // setFocus moves the page's focus to item i; send tells the daemon (the
  // human moved here in the page), how scrolls it into view.
  setFocus(i, side, { send = true, how = 'nearest' } = {}) {
    const L = this.layout;
    if (i < 0 || i >= L.n) return;
    const prev = this.focus;
    this.focus = i;
    this.focusPos = L.posOf(i);
    if (L.kind[i] === LINE) {
      const row = this.rowAt(i, side || this.focusSide);
      this.focusSide = L.split ? (side === 'old' && L.a[i] >= 0) || L.b[i] < 0 ? 'old' : 'new' : rowSide(row, 'new');
    }
    if (this.sel) {
      this.sel.to = this.focusPos;
      this.list.refresh();
    } else {
      this.list.redraw(prev);
      this.list.redraw(i);
    }
    this.list.scrollTo(i, how);
    this.sidebar.setCurrent(L.file[i]);
    if (send) this.sendCursor();
  }

  // focusCursor is the focus in the daemon's cursor coordinates.
  focusCursor() {
    const L = this.layout;
    const i = this.focus;
    if (!L || i < 0) return null;
    const f = L.file[i];
    const path = this.ch.files[f].path;
    if (L.kind[i] !== LINE) return { path, hunk: L.kind[i] === HUNK ? L.hunk[i] - this.ch.hunkBase[f] : -1 };
    const row = this.rowAt(i, this.focusSide);
    const side = rowSide(row, L.split ? this.focusSide : 'new');
    const c = { path, hunk: L.hunk[i] - this.ch.hunkBase[f], side };
    const line = sideLine(row, side);
    if (line != null) c.line = line;
    return c;
  }

  // sendCursor tells the daemon where the page's focus is, one request at
  // a time, so a burst of keys costs one request per round trip.
  sendCursor() {
    if (this.stale) return;
    if (this.cursorBusy) {
      this.cursorDirty = true;
      return;
    }
    const c = this.focusCursor();
    if (!c) return;
    this.sent.push(cursorKey(c));
    if (this.sent.length > 32) this.sent.shift();
    this.cursorBusy = true;
    this.api.setCursor(c).catch((err) => this.fail(err)).finally(() => {
      this.cursorBusy = false;
      if (this.cursorDirty) {
        this.cursorDirty = false;
        this.sendCursor();
      }
    });
  }

  // targetItem maps {path, side, line, hunk} to an item and a side.
  targetItem(c) {
    const L = this.layout;
    const f = this.ch.pathIndex.get(c.path);
    if (f === undefined) return null;
    if (c.line && c.side) {
      const p = this.ch.findLine(c.path, c.side, c.line);
      if (p) return { i: L.rowItem[this.ch.rowBase[p.g] + p.r], side: c.side };
    }
    const nh = (this.ch.files[f].hunks || []).length;
    if (c.hunk >= 0 && c.hunk < nh) {
      const g = this.ch.hunkBase[f] + c.hunk;
      return { i: L.rowItem[this.ch.rowBase[g]], side: c.side || 'new' };
    }
    return { i: L.fileItem[f], side: 'new' };
  }

  locateCursor() {
    const c = this.state && this.state.cursor;
    const t = c && c.path ? this.targetItem(c) : null;
    this.cursorItem = t ? t.i : -1;
    this.cursorSide = t ? t.side : 'new';
  }

  // remoteCursor follows a cursor moved elsewhere (the terminal, an
  // accepted suggestion): one this page did not send.
  remoteCursor(c, first) {
    const key = c && c.path ? cursorKey(c) : '';
    if (key === this.remoteKey) return;
    this.remoteKey = key;
    if (!key || this.sent.includes(key)) return;
    this.sent = [];
    if ((this.follow || first) && this.cursorItem >= 0) {
      this.setFocus(this.cursorItem, this.cursorSide, { send: false, how: 'center' });
    }
  }

  cursorInfo() {
    const box = document.getElementById('cursor-info');
    const c = this.state.cursor;
    while (box.firstChild) box.removeChild(box.firstChild);
    box.hidden = !c || !c.path;
    if (box.hidden) return;
    const where = c.line ? `${c.path}:${c.line}` : c.path;
    const follow = el('input', { type: 'checkbox', id: 'follow', onchange: (e) => { this.follow = e.target.checked; } });
    follow.checked = this.follow;
    box.append(
      el('span', { class: 'cursor-dot', 'aria-hidden': 'true' }),
      el('button', { type: 'button', class: 'link', title: 'The human\'s cursor, shared with the terminal: go there', text: where,
        onclick: () => { if (this.cursorItem >= 0) this.setFocus(this.cursorItem, this.cursorSide, { send: false, how: 'center' }); } }),
      el('label', { class: 'follow', title: 'Follow the cursor when it moves elsewhere (F)' }, follow, 'follow'));
  }

  jumpTo(c, send) {
    const t = this.targetItem(c);
    if (t) this.setFocus(t.i, t.side, { send, how: 'center' });
  }

  jumpToFile(f) {
    this.sel = null;
    this.setFocus(this.layout.fileItem[f], 'new', { how: 'top' });
  }

  focusDiff() { this.diffEl.focus({ preventScroll: true }); }

  // --- viewed marks ---------------------------------------------------

  async toggleViewed(g) {
    const d = this.ch.hunk(g).digest;
    await this.setViewed([d], !this.viewed.has(d));
  }

  async toggleFileViewed(f) {
    const hs = this.ch.files[f].hunks || [];
    const all = hs.every((h) => this.viewed.has(h.digest));
    await this.setViewed(hs.filter((h) => this.viewed.has(h.digest) === all).map((h) => h.digest), !all);
  }

  // setViewed marks digests read (or unread) on screen at once, then in
  // the daemon; a refused mark is taken back.
  async setViewed(digests, viewed) {
    if (!digests.length || this.stale) return;
    for (const d of digests) if (viewed) this.viewed.add(d); else this.viewed.delete(d);
    this.list.refresh();
    this.sidebar.update();
    for (const d of digests) {
      try {
        const r = await this.api.markViewed(d, viewed);
        if (r && r.finished) toast(`Finished ${r.finished}`);
      } catch (err) {
        if (viewed) this.viewed.delete(d); else this.viewed.add(d);
        this.list.refresh();
        this.sidebar.update();
        this.fail(err);
        return;
      }
    }
  }

  // --- comments -------------------------------------------------------

  inSelection(i, side) {
    if (!this.sel) return false;
    const L = this.layout;
    const a = L.itemOf(this.sel.from);
    const b = L.itemOf(this.sel.to);
    if (i < Math.min(a, b) || i > Math.max(a, b) || side !== this.sel.side) return false;
    const row = this.rowAt(i, side);
    return row !== null && rowSide(row, side) === side && sideLine(row, side) != null;
  }

  startSelection() {
    const L = this.layout;
    if (L.kind[this.focus] !== LINE) return;
    const side = this.focusCursor().side;
    this.sel = { from: this.focusPos, to: this.focusPos, side };
    this.list.refresh();
  }

  clearSelection() {
    if (!this.sel) return;
    this.sel = null;
    this.list.refresh();
  }

  // selectionTarget is the selection as lines {path, side, start, end}, or
  // a message saying why it cannot be commented on.
  selectionTarget() {
    const L = this.layout;
    const a = L.itemOf(this.sel.from);
    const b = L.itemOf(this.sel.to);
    const lo = Math.min(a, b);
    const hi = Math.max(a, b);
    if (L.hunk[lo] !== L.hunk[hi]) return 'A range must stay within one hunk.';
    let start = Infinity;
    let end = -Infinity;
    for (let i = lo; i <= hi; i++) {
      if (!this.inSelection(i, this.sel.side)) continue;
      const n = sideLine(this.rowAt(i, this.sel.side), this.sel.side);
      start = Math.min(start, n);
      end = Math.max(end, n);
    }
    if (start === Infinity) return 'The selection holds no line of that side.';
    return { path: this.ch.files[L.file[lo]].path, side: this.sel.side, start, end };
  }

  // commentAt opens the editor on the selection, or on line item i; byKey
  // says a key press opened it.
  commentAt(i, side, byKey = false) {
    const L = this.layout;
    let target;
    if (this.sel) {
      target = this.selectionTarget();
      if (typeof target === 'string') {
        toast(target, null, 'error');
        return;
      }
    } else {
      if (L.kind[i] !== LINE) {
        toast('Move to a line to comment on it.');
        return;
      }
      const row = this.rowAt(i, side);
      const s = rowSide(row, L.split ? side : 'new');
      const line = sideLine(row, s);
      if (line == null) {
        toast('This row is not a line of either file.');
        return;
      }
      target = { path: this.ch.files[L.file[i]].path, side: s, start: line, end: line };
    }
    this.openEditor(target, null, byKey);
  }

  // commentFromGutter is the + button: a click comments on its line; a
  // shift-click comments on the range from the focus to it.
  commentFromGutter(i, side, shift) {
    const L = this.layout;
    if (shift && L.kind[this.focus] === LINE) {
      this.sel = { from: this.focusPos, to: L.posOf(i), side: this.sel ? this.sel.side : side };
    } else {
      this.sel = null;
      this.setFocus(i, side);
    }
    this.commentAt(i, side);
  }

  openEditor(target, draft, byKey = false) {
    this.editor = new Editor(target, draft, async (text) => {
      if (draft) await this.api.editComment(draft.id, text);
      else await this.api.comment({ path: target.path, side: target.side, start_line: target.start, end_line: target.end }, text);
      this.closeEditor();
      toast(draft ? 'Draft updated' : 'Draft saved');
      await this.refreshState();
    }, () => this.closeEditor());
    this.editor.armed = byKey;
    this.sel = null;
    this.rebuild();
    const L = this.layout;
    const t = this.targetItem({ path: target.path, side: target.side, line: target.end || target.start, hunk: -1 });
    let i = t ? t.i : 0;
    while (i < L.n && L.kind[i] !== EDITOR) i++;
    this.list.scrollTo(i, 'nearest', 1);
    this.editor.focus();
  }

  closeEditor() {
    if (!this.editor) return;
    this.editor = null;
    this.rebuild();
    this.focusDiff();
  }

  editDraft(d, byKey = false) {
    const loc = d.location;
    this.openEditor({ path: loc.path, side: loc.side, start: loc.start_line, end: loc.end_line || loc.start_line }, d, byKey);
  }

  async deleteDraft(d) {
    try {
      const deleted = await this.api.deleteComment(d.id);
      toast('Draft deleted', { label: 'Undo', run: () => this.api.restoreComment(deleted).then(() => this.refreshState(), (err) => this.fail(err)) });
      await this.refreshState();
    } catch (err) {
      this.fail(err);
    }
  }

  async resolveDraft(d, resolved) {
    try {
      await this.api.resolveComment(d.id, resolved);
      await this.refreshState();
    } catch (err) {
      this.fail(err);
    }
  }

  // draftOnFocus is the human's own draft on the focused line, or null.
  draftOnFocus() {
    const c = this.focusCursor();
    if (!c || !c.line) return null;
    return this.placed.find((d) => d.author === 'human' && d.location.path === c.path && d.location.side === c.side
      && c.line >= d.location.start_line && c.line <= (d.location.end_line || d.location.start_line)) || null;
  }

  // --- suggestions ----------------------------------------------------

  async answer(s, accept) {
    try {
      await this.api.answer(s.id, accept);
      if (accept) this.jumpTo(s, false);
      await this.refreshState();
    } catch (err) {
      this.fail(err);
    }
  }

  peek(s) { this.jumpTo(s, true); }
}
