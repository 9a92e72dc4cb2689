// cursor.js is the human's shared cursor: where the page says the human
// is looking when they move in it, and what the page shows when the
// cursor moves elsewhere (the terminal, an accepted suggestion). It is in
// the daemon's coordinates: path, side, line and hunk index, never a row.
import { el } from './dom.js';

// cursorKey names a cursor for comparison ({path, side, line, hunk}).
function cursorKey(c) {
  return `${c.path}\n${c.side || ''}\n${c.line || 0}\n${c.hunk}`;
}

export class SharedCursor {
  constructor(app) {
    this.app = app;
    // item and side are where the state's cursor is in the layout (-1:
    // not on screen).
    this.item = -1;
    this.side = 'new';
    // sent are the cursors this page sent lately: seeing one of them come
    // back is not a move made elsewhere.
    this.sent = [];
    this.busy = false;
    this.dirty = false;
    this.remoteKey = '';
    // follow moves the page's focus along when the cursor moves elsewhere.
    this.follow = true;
  }

  // send tells the daemon where the page's focus is, one request at
  // a time, so a burst of keys costs one request per round trip.
  send() {
    if (this.app.stale) return;
    if (this.busy) {
      this.dirty = true;
      return;
    }
    const c = this.app.focusCursor();
    if (!c) return;
    this.sent.push(cursorKey(c));
    if (this.sent.length > 32) this.sent.shift();
    this.busy = true;
    this.app.api.setCursor(c).catch((err) => this.app.fail(err)).finally(() => {
      this.busy = false;
      if (this.dirty) {
        this.dirty = false;
        this.send();
      }
    });
  }

  // target maps {path, side, line, hunk} to an item and a side.
  target(c) {
    const L = this.app.layout;
    const f = this.app.ch.pathIndex.get(c.path);
    if (f === undefined) return null;
    if (c.line && c.side) {
      const p = this.app.ch.findLine(c.path, c.side, c.line);
      if (p) return { i: L.rowItem[this.app.ch.rowBase[p.g] + p.r], side: c.side };
    }
    const nh = (this.app.ch.files[f].hunks || []).length;
    if (c.hunk >= 0 && c.hunk < nh) {
      const g = this.app.ch.hunkBase[f] + c.hunk;
      return { i: L.rowItem[this.app.ch.rowBase[g]], side: c.side || 'new' };
    }
    return { i: L.fileItem[f], side: 'new' };
  }

  // locate finds the state's cursor in the current layout.
  locate() {
    const c = this.app.state && this.app.state.cursor;
    const t = c && c.path ? this.target(c) : null;
    this.item = t ? t.i : -1;
    this.side = t ? t.side : 'new';
  }

  // remote follows a cursor moved elsewhere (the terminal, an
  // accepted suggestion): one this page did not send.
  remote(c, first) {
    const key = c && c.path ? cursorKey(c) : '';
    if (key === this.remoteKey) return;
    this.remoteKey = key;
    if (!key || this.sent.includes(key)) return;
    this.sent = [];
    if ((this.follow || first) && this.item >= 0) {
      this.app.setFocus(this.item, this.side, { send: false, how: 'center' });
    }
  }

  // info shows the cursor in the header, with the follow switch.
  info() {
    const box = document.getElementById('cursor-info');
    const c = this.app.state.cursor;
    while (box.firstChild) box.removeChild(box.firstChild);
    box.hidden = !c || !c.path;
    if (box.hidden) return;
    const where = c.line ? `${c.path}:${c.line}` : c.path;
    const follow = el('input', { type: 'checkbox', id: 'follow', onchange: (e) => { this.follow = e.target.checked; } });
    follow.checked = this.follow;
    box.append(
      el('span', { class: 'cursor-dot', 'aria-hidden': 'true' }),
      el('button', { type: 'button', class: 'link', title: 'The human\'s cursor, shared with the terminal: go there', text: where,
        onclick: () => { if (this.item >= 0) this.app.setFocus(this.item, this.side, { send: false, how: 'center' }); } }),
      el('label', { class: 'follow', title: 'Follow the cursor when it moves elsewhere (F)' }, follow, 'follow'));
  }
}
