// rows.js draws one item of the flat index as an element. Every function
// here builds DOM with createElement/textContent (dom.js); the text of
// diffs and comments is never interpreted.
import { el } from './dom.js';
import { FILE, HUNK, LINE, NOTE, COMMENT, EDITOR, rowSide } from './model.js';
import { rowText, paint, LIMIT } from './text.js';
import { langFor } from './syntax.js';

const STATUS = { added: 'A', deleted: 'D', modified: 'M', renamed: 'R', copied: 'C' };

// renderItem returns the element of item i. app supplies the layout, the
// review state and the actions (see App in app.js).
export function renderItem(app, i) {
  const L = app.layout;
  switch (L.kind[i]) {
    case FILE: return fileRow(app, L.file[i], i);
    case HUNK: return hunkRow(app, L.hunk[i], i);
    case LINE: return L.split ? splitRow(app, i) : unifiedRow(app, i);
    case NOTE: return noteRow(app, L.file[i]);
    case COMMENT: return commentRow(app, L.drafts[L.a[i]]);
    case EDITOR: return app.drafts.editor.element();
  }
  return el('div', { class: 'row' });
}

function fileRow(app, f, i) {
  const file = app.ch.files[f];
  const { viewed, total } = app.fileProgress(f);
  const drafts = app.fileDrafts(f);
  const done = total > 0 && viewed === total;
  const path = file.old_path && file.old_path !== file.path
    ? [el('span', { class: 'old-path', text: file.old_path }), el('span', { class: 'arrow', text: ' → ' }), file.path]
    : [file.path];
  const row = el('div', { class: 'row file' + (done ? ' done' : '') + (app.focus === i ? ' focus' : ''), role: 'heading', 'aria-level': '2', dataset: { path: file.path } },
    el('div', { class: 'file-bar' },
      el('span', { class: 'status st-' + file.status, title: file.status, text: STATUS[file.status] || '?' }),
      el('span', { class: 'path', title: file.path }, path),
      file.old_mode && file.new_mode && file.old_mode !== file.new_mode
        ? el('span', { class: 'tag', text: `mode ${file.old_mode} → ${file.new_mode}` }) : null,
      file.binary ? el('span', { class: 'tag', text: 'binary' }) : null,
      el('span', { class: 'grow' }),
      drafts ? el('span', { class: 'badge', title: 'drafts on this file', text: `${drafts} ✎` }) : null,
      file.binary ? null : el('span', { class: 'stat' }, el('span', { class: 'plus', text: `+${file.additions}` }), ' ', el('span', { class: 'minus', text: `−${file.deletions}` })),
      total ? el('button', {
        type: 'button', class: 'viewed-toggle' + (done ? ' on' : ''), title: 'Mark every hunk of the file viewed (v on the heading)',
        onclick: (e) => { e.stopPropagation(); app.toggleFileViewed(f); },
      }, el('span', { class: 'box', 'aria-hidden': 'true' }), `${viewed}/${total} viewed`) : null));
  return row;
}

function hunkRow(app, g, i) {
  const h = app.ch.hunk(g);
  const viewed = app.viewed.has(h.digest);
  const at = h.header.indexOf('@@', 2);
  const range = at > 0 ? h.header.slice(0, at + 2) : h.header;
  const f = app.ch.hunkFile[g];
  return el('div', { class: 'row hunk' + (viewed ? ' viewed' : '') + (app.focus === i ? ' focus' : ''), dataset: { path: app.ch.files[f].path, hunk: String(g - app.ch.hunkBase[f]) } },
    el('button', {
      type: 'button', class: 'viewed-toggle' + (viewed ? ' on' : ''), 'aria-pressed': String(viewed),
      title: 'Mark this hunk viewed (v)', onclick: (e) => { e.stopPropagation(); app.toggleViewed(g); },
    }, el('span', { class: 'box', 'aria-hidden': 'true' }), 'Viewed'),
    el('span', { class: 'range', text: range }),
    h.declaration ? el('span', { class: 'decl', text: h.declaration }) : null,
    h.warnings && h.warnings.length ? el('span', { class: 'warn', title: h.warnings.join('\n'), text: '⚠ repaired' }) : null);
}

function noteRow(app, f) {
  const file = app.ch.files[f];
  let text = 'No textual change.';
  if (file.binary) text = 'Binary file: its content is not shown.';
  else if (file.old_mode && file.new_mode && file.old_mode !== file.new_mode) text = `Mode changed from ${file.old_mode} to ${file.new_mode}; the content is unchanged.`;
  else if (file.status === 'renamed' || file.status === 'copied') text = `${file.status === 'renamed' ? 'Renamed' : 'Copied'} without changes.`;
  return el('div', { class: 'row note', text });
}

// gutterClasses are the classes a line carries for the page's focus and
// selection, the human's shared cursor, and drafts.
function lineState(app, i, side) {
  let cls = '';
  if (app.focus === i && (!app.layout.split || app.focusSide === side)) cls += ' focus';
  if (app.drafts.inSelection(i, side)) cls += ' sel';
  if (app.cursor.item === i && (!app.layout.split || app.cursor.side === side)) cls += ' shared-cursor';
  return cls;
}

function code(app, i, right) {
  const L = app.layout;
  const g = L.hunk[i];
  const h = app.ch.hunk(g);
  const r = right ? L.b[i] : L.a[i];
  const t = rowText(h, r);
  const span = el('span', { class: 'text' });
  paint(span, t, app.langOf(L.file[i]));
  const c = el('span', { class: 'code' }, span);
  if (t.rest) span.appendChild(el('span', { class: 'cut', text: ` … ${t.rest.toLocaleString('en-US')} more characters not shown (line longer than ${LIMIT.toLocaleString('en-US')})` }));
  return c;
}

function num(n) { return el('span', { class: 'ln', text: n == null ? '' : String(n) }); }

function sign(kind) {
  return el('span', { class: 'sign', text: kind === 'add' ? '+' : kind === 'del' ? '−' : kind === 'meta' ? '\\' : ' ' });
}

function addButton(app, i, side) {
  return el('button', {
    type: 'button', class: 'add-comment', title: 'Comment on this line (c); shift-click a second line for a range',
    'aria-label': 'Comment', text: '+',
    onclick: (e) => { e.stopPropagation(); app.drafts.commentFromGutter(i, side, e.shiftKey); },
  });
}

// lineData names a line row by path and line numbers (data-path, data-old,
// data-new), for tests and tools that look for a line on the page.
function lineData(app, i, left, right) {
  const d = { path: app.ch.files[app.layout.file[i]].path };
  if (left && left.old_line != null) d.old = String(left.old_line);
  if (right && right.new_line != null) d.new = String(right.new_line);
  return d;
}

function unifiedRow(app, i) {
  const row = app.layout.row(i, false);
  const side = rowSide(row, 'new');
  const mark = app.cursor.item === i ? el('span', { class: 'cursor-flag', title: 'The human\'s cursor (terminal or page)', text: 'cursor' }) : null;
  return el('div', { class: `row line ${row.kind}${lineState(app, i, side)}`, role: 'row', dataset: lineData(app, i, row, row) },
    num(row.old_line), num(row.new_line), row.kind === 'meta' ? null : addButton(app, i, side), sign(row.kind), code(app, i, false), mark);
}

function splitRow(app, i) {
  const L = app.layout;
  const half = (right) => {
    const r = right ? L.b[i] : L.a[i];
    const side = right ? 'new' : 'old';
    if (r < 0) return el('div', { class: 'half empty' + (right ? ' right' : ' left') });
    const row = L.row(i, right);
    const n = right ? row.new_line : row.old_line;
    const mark = app.cursor.item === i && app.cursor.side === side ? el('span', { class: 'cursor-flag', text: 'cursor' }) : null;
    return el('div', { class: `half ${right ? 'right' : 'left'} ${row.kind}${lineState(app, i, side)}`, dataset: { side } },
      num(n), row.kind === 'meta' ? null : addButton(app, i, side), sign(row.kind), code(app, i, right), mark);
  };
  return el('div', { class: 'row line split', role: 'row', dataset: lineData(app, i, L.row(i, false), L.row(i, true)) }, half(false), half(true));
}

function commentRow(app, d) {
  const mine = d.author === 'human';
  const loc = d.location;
  const lines = loc.end_line && loc.end_line !== loc.start_line ? `${loc.start_line}–${loc.end_line}` : `${loc.start_line}`;
  const actions = [];
  if (mine) {
    actions.push(el('button', { type: 'button', text: 'Edit', onclick: () => app.drafts.editDraft(d) }));
    actions.push(el('button', { type: 'button', text: 'Delete', onclick: () => app.drafts.deleteDraft(d) }));
  }
  actions.push(el('button', { type: 'button', text: d.resolved ? 'Unresolve' : 'Resolve', onclick: () => app.drafts.resolveDraft(d, !d.resolved) }));
  return el('div', { class: 'row comment' + (mine ? ' mine' : ' agent') + (d.resolved ? ' resolved' : ''), dataset: { draft: d.id } },
    el('div', { class: 'cbox' },
      el('div', { class: 'chead' },
        el('span', { class: 'who', text: mine ? 'You' : 'Agent' }),
        el('span', { class: 'where', text: `${loc.side} ${lines}` }),
        d.status === 'moved' ? el('span', { class: 'tag moved', title: 'The code moved since the comment was written; it followed it.', text: 'moved' }) : null,
        d.resolved ? el('span', { class: 'tag', text: 'resolved' }) : null,
        el('span', { class: 'grow' }),
        actions),
      el('div', { class: 'cbody', text: d.body })));
}
