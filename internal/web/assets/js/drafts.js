// drafts.js is what the page does with drafts: the line selection, the
// inline editor, and the human's writes (comment, edit, delete with undo,
// resolve). Placement is the core's: a draft shows where state.drafts
// says it is, never where the page guesses.
import { LINE, EDITOR, rowSide, sideLine } from './model.js';
import { Editor } from './editor.js';
import { toast } from './notify.js';

export class Drafts {
  constructor(app) {
    this.app = app;
    // sel is a line range being selected: {from, to} positions and side.
    this.sel = null;
    // editor is the open Editor, or null.
    this.editor = null;
  }

  inSelection(i, side) {
    if (!this.sel) return false;
    const L = this.app.layout;
    const a = L.itemOf(this.sel.from);
    const b = L.itemOf(this.sel.to);
    if (i < Math.min(a, b) || i > Math.max(a, b) || side !== this.sel.side) return false;
    const row = this.app.rowAt(i, side);
    return row !== null && rowSide(row, side) === side && sideLine(row, side) != null;
  }

  startSelection() {
    const L = this.app.layout;
    if (L.kind[this.app.focus] !== LINE) return;
    const side = this.app.focusCursor().side;
    this.sel = { from: this.app.focusPos, to: this.app.focusPos, side };
    this.app.list.refresh();
  }

  clearSelection() {
    if (!this.sel) return;
    this.sel = null;
    this.app.list.refresh();
  }

  // selectionTarget is the selection as lines {path, side, start, end}, or
  // a message saying why it cannot be commented on.
  selectionTarget() {
    const L = this.app.layout;
    const a = L.itemOf(this.sel.from);
    const b = L.itemOf(this.sel.to);
    const lo = Math.min(a, b);
    const hi = Math.max(a, b);
    if (L.hunk[lo] !== L.hunk[hi]) return 'A range must stay within one hunk.';
    let start = Infinity;
    let end = -Infinity;
    for (let i = lo; i <= hi; i++) {
      if (!this.inSelection(i, this.sel.side)) continue;
      const n = sideLine(this.app.rowAt(i, this.sel.side), this.sel.side);
      start = Math.min(start, n);
      end = Math.max(end, n);
    }
    if (start === Infinity) return 'The selection holds no line of that side.';
    return { path: this.app.ch.files[L.file[lo]].path, side: this.sel.side, start, end };
  }

  // commentAt opens the editor on the selection, or on line item i; byKey
  // says a key press opened it.
  commentAt(i, side, byKey = false) {
    const L = this.app.layout;
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
      const row = this.app.rowAt(i, side);
      const s = rowSide(row, L.split ? side : 'new');
      const line = sideLine(row, s);
      if (line == null) {
        toast('This row is not a line of either file.');
        return;
      }
      target = { path: this.app.ch.files[L.file[i]].path, side: s, start: line, end: line };
    }
    this.openEditor(target, null, byKey);
  }

  // commentFromGutter is the + button: a click comments on its line; a
  // shift-click comments on the range from the focus to it.
  commentFromGutter(i, side, shift) {
    const L = this.app.layout;
    if (shift && L.kind[this.app.focus] === LINE) {
      this.sel = { from: this.app.focusPos, to: L.posOf(i), side: this.sel ? this.sel.side : side };
    } else {
      this.sel = null;
      this.app.setFocus(i, side);
    }
    this.commentAt(i, side);
  }

  openEditor(target, draft, byKey = false) {
    this.editor = new Editor(target, draft, async (text) => {
      if (draft) await this.app.api.editComment(draft.id, text);
      else await this.app.api.comment({ path: target.path, side: target.side, start_line: target.start, end_line: target.end }, text);
      this.closeEditor();
      toast(draft ? 'Draft updated' : 'Draft saved');
      await this.app.refreshState();
    }, () => this.closeEditor());
    this.editor.armed = byKey;
    this.sel = null;
    this.app.rebuild();
    const L = this.app.layout;
    const t = this.app.cursor.target({ path: target.path, side: target.side, line: target.end || target.start, hunk: -1 });
    let i = t ? t.i : 0;
    while (i < L.n && L.kind[i] !== EDITOR) i++;
    this.app.list.scrollTo(i, 'nearest', 1);
    this.editor.focus();
  }

  closeEditor() {
    if (!this.editor) return;
    this.editor = null;
    this.app.rebuild();
    this.app.focusDiff();
  }

  editDraft(d, byKey = false) {
    const loc = d.location;
    this.openEditor({ path: loc.path, side: loc.side, start: loc.start_line, end: loc.end_line || loc.start_line }, d, byKey);
  }

  async deleteDraft(d) {
    try {
      const deleted = await this.app.api.deleteComment(d.id);
      toast('Draft deleted', { label: 'Undo', run: () => this.app.api.restoreComment(deleted).then(() => this.app.refreshState(), (err) => this.app.fail(err)) });
      await this.app.refreshState();
    } catch (err) {
      this.app.fail(err);
    }
  }

  async resolveDraft(d, resolved) {
    try {
      await this.app.api.resolveComment(d.id, resolved);
      await this.app.refreshState();
    } catch (err) {
      this.app.fail(err);
    }
  }

  // draftOnFocus is the human's own draft on the focused line, or null.
  draftOnFocus() {
    const c = this.app.focusCursor();
    if (!c || !c.line) return null;
    return this.app.placed.find((d) => d.author === 'human' && d.location.path === c.path && d.location.side === c.side
      && c.line >= d.location.start_line && c.line <= (d.location.end_line || d.location.start_line)) || null;
  }
}
