// sidebar.js draws the left column: the review's totals, the agent's
// suggestions, the orphaned drafts, and the file list (virtualized like
// the diff, so a change of thousands of files costs a screenful of DOM).
import { el, clear, plural } from './dom.js';
import { VirtualList } from './view.js';

const STATUS = { added: 'A', deleted: 'D', modified: 'M', renamed: 'R', copied: 'C' };
const FILE_ROW_PX = 28;

export class Sidebar {
  constructor(app) {
    this.app = app;
    this.summaryEl = document.getElementById('summary');
    this.suggestEl = document.getElementById('suggestions');
    this.orphanEl = document.getElementById('orphans');
    this.filter = document.getElementById('file-filter');
    this.shown = [];
    this.current = -1;
    this.sig = '';
    this.list = new VirtualList(document.getElementById('files'), {
      rowHeight: FILE_ROW_PX, overscan: 6, render: (i) => this.fileEntry(this.shown[i]),
    });
    this.filter.addEventListener('input', () => this.setFiles());
    this.filter.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && this.shown.length) { this.app.jumpToFile(this.shown[0]); this.app.focusDiff(); }
      if (e.key === 'Escape') { this.filter.value = ''; this.setFiles(); this.app.focusDiff(); }
    });
  }

  // setFiles lists the files matching the filter.
  setFiles() {
    const q = this.filter.value.trim().toLowerCase();
    const files = this.app.ch.files;
    this.shown = [];
    for (let f = 0; f < files.length; f++) {
      if (!q || files[f].path.toLowerCase().includes(q)) this.shown.push(f);
    }
    const top = new Float64Array(this.shown.length + 1);
    for (let i = 0; i < this.shown.length; i++) top[i + 1] = i + 1;
    this.list.setModel(this.shown.length, top, 0);
  }

  // setCurrent highlights file f (the one the reader is in).
  setCurrent(f) {
    if (f === this.current) return;
    this.current = f;
    this.list.refresh();
    const i = this.shown.indexOf(f);
    if (i >= 0) this.list.scrollTo(i, 'nearest', 1);
  }

  fileEntry(f) {
    const app = this.app;
    const file = app.ch.files[f];
    const { viewed, total } = app.fileProgress(f);
    const drafts = app.fileDrafts(f);
    const slash = file.path.lastIndexOf('/');
    const done = total > 0 && viewed === total;
    return el('div', {
      class: 'file-entry' + (f === this.current ? ' current' : '') + (done ? ' done' : ''), role: 'option', title: file.path,
      dataset: { path: file.path }, onclick: () => { app.jumpToFile(f); app.focusDiff(); },
    },
    el('span', { class: 'status st-' + file.status, text: STATUS[file.status] || '?' }),
    el('span', { class: 'fname' },
      slash >= 0 ? el('span', { class: 'dir', text: file.path.slice(0, slash + 1) }) : null,
      el('span', { class: 'base', text: file.path.slice(slash + 1) })),
    drafts ? el('span', { class: 'badge', title: plural(drafts, 'draft'), text: String(drafts) }) : null,
    file.binary
      ? el('span', { class: 'fstat', text: 'binary' })
      : el('span', { class: 'fstat' }, el('span', { class: 'plus', text: `+${file.additions}` }), el('span', { class: 'minus', text: `−${file.deletions}` })),
    el('span', { class: 'fprog', title: `${viewed} of ${total} hunks viewed` },
      total ? el('span', { class: 'meter' }, fill(Math.round(100 * viewed / total))) : null));
  }

  // update redraws what depends on the review state, when it changed: a
  // redraw replaces the buttons, which must not happen under the mouse for
  // nothing.
  update() {
    const st = this.app.state || {};
    const sig = JSON.stringify([st.suggestions, st.drafts, st.viewed, [...this.app.viewed].length]);
    if (sig === this.sig) return;
    this.sig = sig;
    this.summary();
    this.suggestions();
    this.orphans();
    this.list.refresh();
  }

  summary() {
    const app = this.app;
    const ch = app.ch;
    const viewed = app.viewedHunks();
    const st = app.state || { drafts: [] };
    const pct = ch.hunkCount ? Math.round((100 * viewed) / ch.hunkCount) : 0;
    clear(this.summaryEl);
    this.summaryEl.append(
      el('div', { class: 'sum-line' },
        el('span', { text: plural(ch.files.length, 'file') }),
        el('span', { class: 'plus', text: `+${ch.additions.toLocaleString('en-US')}` }),
        el('span', { class: 'minus', text: `−${ch.deletions.toLocaleString('en-US')}` })),
      el('div', { class: 'progress', title: `${viewed} of ${ch.hunkCount} hunks viewed` },
        el('div', { class: 'bar' }, fill(pct)),
        el('span', { class: 'pct', text: `${viewed}/${ch.hunkCount} hunks viewed` })),
      el('div', { class: 'sum-line dim', text: `${plural(st.drafts.filter((d) => d.author === 'human').length, 'draft')} by you · ${plural(st.drafts.filter((d) => d.author === 'agent').length, 'comment')} by the agent` }));
  }

  suggestions() {
    const app = this.app;
    const list = (app.state && app.state.suggestions) || [];
    clear(this.suggestEl);
    this.suggestEl.hidden = list.length === 0;
    if (!list.length) return;
    const pending = list.filter((s) => s.state === 'pending').length;
    this.suggestEl.append(el('h2', null, 'Agent suggestions', pending ? el('span', { class: 'count', text: String(pending) }) : null));
    const ordered = [...list].sort((a, b) => (b.state === 'pending') - (a.state === 'pending') || (a.created < b.created ? 1 : -1));
    for (const s of ordered) {
      const where = `${s.path}${s.line ? `:${s.line}` : ''} · hunk ${s.hunk + 1}`;
      this.suggestEl.append(el('div', { class: 'suggestion ' + s.state, dataset: { id: s.id } },
        el('div', { class: 'reason', text: s.reason }),
        el('div', { class: 'sfoot' },
          el('button', { type: 'button', class: 'link', text: where, title: 'Look there without answering', onclick: () => app.peek(s) }),
          el('span', { class: 'grow' }),
          s.state === 'pending'
            ? [el('button', { type: 'button', class: 'primary small', text: 'Accept', onclick: () => app.answer(s, true) }),
              el('button', { type: 'button', class: 'small', text: 'Decline', onclick: () => app.answer(s, false) })]
            : el('span', { class: 'tag', text: s.state }))));
    }
  }

  orphans() {
    const app = this.app;
    const list = ((app.state && app.state.drafts) || []).filter((d) => d.status === 'orphaned');
    clear(this.orphanEl);
    this.orphanEl.hidden = list.length === 0;
    if (!list.length) return;
    this.orphanEl.append(el('h2', null, 'Orphaned drafts', el('span', { class: 'count', text: String(list.length) })));
    for (const d of list) {
      const a = d.anchor || {};
      const lines = a.end_line && a.end_line !== a.start_line ? `${a.start_line}–${a.end_line}` : `${a.start_line}`;
      this.orphanEl.append(el('div', { class: 'orphan', dataset: { draft: d.id } },
        el('div', { class: 'ohead' },
          el('span', { class: 'tag orphaned', title: 'The code this draft was about is gone or ambiguous; it is kept and will not be submitted.', text: 'orphaned' }),
          el('span', { class: 'where', text: `${a.path || '?'} ${a.side || ''} ${lines}` })),
        el('div', { class: 'obody', text: d.body }),
        el('div', { class: 'sfoot' },
          el('span', { class: 'who', text: d.author === 'human' ? 'You' : 'Agent' }),
          el('span', { class: 'grow' }),
          d.author === 'human' ? el('button', { type: 'button', class: 'small', text: 'Delete', onclick: () => app.drafts.deleteDraft(d) }) : null,
          el('button', { type: 'button', class: 'small', text: d.resolved ? 'Unresolve' : 'Resolve', onclick: () => app.drafts.resolveDraft(d, !d.resolved) }))));
    }
  }
}

// fill is a progress bar's filled part, pct wide. The width goes through
// the CSSOM: the page's policy forbids style attributes.
function fill(pct) {
  const f = el('span', { class: 'fill' });
  f.style.width = pct + '%';
  return f;
}
