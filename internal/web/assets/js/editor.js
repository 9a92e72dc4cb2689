// editor.js is the inline comment editor: a textarea under the commented
// line(s), for a new draft or an edit of one of the human's own. Its
// element is made once and kept, so a layout rebuild (another surface
// wrote something) does not lose what is being typed.
import { el } from './dom.js';

export class Editor {
  // target is {path, side, start, end}; draft, when editing, is the draft.
  // onSave(text) returns a promise; onCancel() closes the editor.
  constructor(target, draft, onSave, onCancel) {
    this.target = target;
    this.draft = draft;
    this.onSave = onSave;
    this.onCancel = onCancel;
    this.el = null;
    this.busy = false;
    // armed is set when a key opened the editor; see onbeforeinput.
    this.armed = false;
  }

  // line is where the layout puts the editor: under the target's last line.
  get anchor() {
    return { path: this.target.path, side: this.target.side, line: this.target.end || this.target.start };
  }

  element() {
    if (this.el) return this.el;
    const t = this.target;
    const lines = t.end && t.end !== t.start ? `lines ${t.start}–${t.end}` : `line ${t.start}`;
    this.area = el('textarea', {
      class: 'ctext', rows: '4', spellcheck: 'true', 'aria-label': 'Comment',
      placeholder: 'Write a comment (Markdown is kept as written). Ctrl+Enter saves, Esc cancels.',
      // A character arriving with no key pressed in the editor is the tail
      // of the key that opened it (c): it is not part of the comment.
      onbeforeinput: (e) => {
        if (this.armed) e.preventDefault();
        this.armed = false;
      },
      onkeydown: (e) => {
        this.armed = false;
        if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); this.save(); }
        else if (e.key === 'Escape') { e.preventDefault(); this.onCancel(); }
      },
    });
    if (this.draft) this.area.value = this.draft.body;
    this.saveButton = el('button', { type: 'button', class: 'primary', text: this.draft ? 'Save' : 'Comment', onclick: () => this.save() });
    this.status = el('span', { class: 'hint', text: `${this.draft ? 'Editing your draft on' : 'New draft on'} ${t.side} ${lines} of ${t.path}` });
    this.el = el('div', { class: 'row editor' },
      el('div', { class: 'cbox' }, this.area,
        el('div', { class: 'cfoot' }, this.status, el('span', { class: 'grow' }),
          el('button', { type: 'button', text: 'Cancel', onclick: () => this.onCancel() }), this.saveButton)));
    return this.el;
  }

  focus() {
    if (this.area && document.activeElement !== this.area) this.area.focus({ preventScroll: true });
  }

  hasFocus() { return this.area && document.activeElement === this.area; }

  async save() {
    const text = this.area.value;
    if (this.busy) return;
    if (!text.trim()) {
      this.status.textContent = 'A comment needs some text.';
      return;
    }
    this.busy = true;
    this.saveButton.disabled = true;
    try {
      await this.onSave(text);
    } catch (err) {
      this.status.textContent = `Not saved: ${err.message}`;
    } finally {
      this.busy = false;
      if (this.saveButton) this.saveButton.disabled = false;
    }
  }
}
