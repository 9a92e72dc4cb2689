// app.js holds one review on the page: the changeset (fetched once and
// kept), the review state (fetched again on every event), the layout the
// diff view scrolls, the page's own focus, and the actions every control
// and key leads to. It renders through VirtualList (view.js) and rows.js.
import { Changes, buildLayout, FILE, HUNK, LINE, rowSide, sideLine } from './model.js';
import { VirtualList } from './view.js';
import { renderItem } from './rows.js';
import { Sidebar } from './sidebar.js';
import { Drafts } from './drafts.js';
import { SharedCursor } from './cursor.js';
import { toast, banner, message } from './notify.js';
import { langFor } from './syntax.js';
import { LIMIT } from './text.js';
import { el } from './dom.js';
import { bindInput } from './input.js';

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
    this.viewedSig = '';
    this.split = localStorage.getItem('leanreview.split') === '1';
    // The page's own focus: an item, the position it stands for (kept
    // across rebuilds) and, in the split view, the side.
    this.focus = -1;
    this.focusPos = null;
    this.focusSide = 'new';
    this.cursor = new SharedCursor(this);
    this.drafts = new Drafts(this);
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
    const viewedSig = st.viewed.join(',');
    if (first || sig !== this.draftSig) {
      this.draftSig = sig;
      this.viewedSig = viewedSig;
      this.rebuild();
    } else {
      // Rows are drawn again only when what they show changed, so a
      // cursor echo does not replace the row under the mouse.
      const was = [this.cursor.item, this.cursor.side];
      this.cursor.locate();
      if (viewedSig !== this.viewedSig || was[0] !== this.cursor.item || was[1] !== this.cursor.side) {
        this.viewedSig = viewedSig;
        this.list.refresh();
      }
    }
    this.sidebar.update();
    this.cursor.remote(st.cursor, first);
    this.cursor.info();
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
      this.drafts.editor = null;
      this.drafts.sel = null;
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
    const ed = this.drafts.editor;
    const editing = ed && ed.draft ? ed.draft.id : '';
    const drafts = editing ? this.placed.filter((d) => d.id !== editing) : this.placed;
    const hadEditorFocus = ed && ed.hasFocus();
    const L = buildLayout(this.ch, this.split, drafts, ed ? ed.anchor : null);
    this.layout = L;
    this.focus = this.focusPos ? L.itemOf(this.focusPos) : -1;
    if (this.focus < 0 && L.n) this.focus = 0;
    this.cursor.locate();
    this.list.setModel(L.n, L.top, this.contentWidth());
    if (keep) {
      const i = L.itemOf(keep.pos);
      if (i >= 0) this.list.setVirtualTop(L.top[i] * this.rowH + keep.offset);
    }
    if (hadEditorFocus) ed.focus();
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
    if (this.drafts.sel) {
      this.drafts.sel.to = this.focusPos;
      this.list.refresh();
    } else {
      this.list.redraw(prev);
      this.list.redraw(i);
    }
    this.list.scrollTo(i, how);
    this.sidebar.setCurrent(L.file[i]);
    if (send) this.cursor.send();
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

  jumpTo(c, send) {
    const t = this.cursor.target(c);
    if (t) this.setFocus(t.i, t.side, { send, how: 'center' });
  }

  jumpToFile(f) {
    this.drafts.sel = null;
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
