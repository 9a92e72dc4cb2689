// keys.js is the page's keymap, one table that feeds both the key handling
// and the help overlay, with the terminal's keys (internal/tui keymap.go)
// so a reviewer's fingers work in both.
import { el, clear } from './dom.js';

// KEYMAP lists each action with its keys; a two-key sequence is written
// with a space ("] c").
export const KEYMAP = [
  { action: 'down', group: 'Move', help: 'next line', keys: ['j', 'ArrowDown'] },
  { action: 'up', group: 'Move', help: 'previous line', keys: ['k', 'ArrowUp'] },
  { action: 'nextChange', group: 'Move', help: 'next change', keys: ['J'] },
  { action: 'prevChange', group: 'Move', help: 'previous change', keys: ['K'] },
  { action: 'nextHunk', group: 'Move', help: 'next hunk', keys: ['] c'] },
  { action: 'prevHunk', group: 'Move', help: 'previous hunk', keys: ['[ c'] },
  { action: 'nextFile', group: 'Move', help: 'next file', keys: ['] f'] },
  { action: 'prevFile', group: 'Move', help: 'previous file', keys: ['[ f'] },
  { action: 'top', group: 'Move', help: 'first line', keys: ['g g', 'Home'] },
  { action: 'bottom', group: 'Move', help: 'last line', keys: ['G', 'End'] },
  { action: 'pageDown', group: 'Move', help: 'page down', keys: ['PageDown', ' '] },
  { action: 'pageUp', group: 'Move', help: 'page up', keys: ['PageUp'] },
  { action: 'sideOld', group: 'Move', help: 'split view: old (left) side', keys: ['h', 'ArrowLeft'] },
  { action: 'sideNew', group: 'Move', help: 'split view: new (right) side', keys: ['l', 'ArrowRight'] },
  { action: 'pickFile', group: 'Find', help: 'filter the file list', keys: ['f'] },
  { action: 'toggleView', group: 'View', help: 'unified or split view', keys: ['t'] },
  { action: 'follow', group: 'View', help: 'follow the cursor moved elsewhere (terminal, accepted suggestion)', keys: ['F'] },
  { action: 'comment', group: 'Comment', help: 'comment on the line (or the selection); shift-click selects a range', keys: ['c'] },
  { action: 'select', group: 'Comment', help: 'start or end a line selection', keys: ['V'] },
  { action: 'edit', group: 'Comment', help: 'edit your draft on the line', keys: ['e'] },
  { action: 'delete', group: 'Comment', help: 'delete your draft on the line', keys: ['d d'] },
  { action: 'cancel', group: 'Comment', help: 'cancel the selection, the editor or this help', keys: ['Escape'] },
  { action: 'viewed', group: 'Review', help: 'mark the hunk viewed (again: unmark; on a file heading: the file)', keys: ['v'] },
  { action: 'help', group: 'Other', help: 'this help', keys: ['?'] },
];

// Keys matches key presses, sequences included, to actions.
export class Keys {
  constructor() {
    this.seqs = new Map();
    this.prefixes = new Set();
    for (const b of KEYMAP) {
      for (const k of b.keys) {
        this.seqs.set(k, b.action);
        const parts = k.split(' ');
        if (parts.length > 1 && k !== ' ') this.prefixes.add(parts[0]);
      }
    }
    this.pending = '';
  }

  // match returns the action of key after any pending prefix, '' while a
  // sequence is incomplete, or null when key means nothing.
  match(key) {
    if (this.pending) {
      const seq = this.pending + ' ' + key;
      this.pending = '';
      if (this.seqs.has(seq)) return this.seqs.get(seq);
    }
    if (this.prefixes.has(key)) {
      this.pending = key;
      return '';
    }
    return this.seqs.has(key) ? this.seqs.get(key) : null;
  }
}

function keyLabel(k) {
  const names = { ArrowDown: '↓', ArrowUp: '↑', ArrowLeft: '←', ArrowRight: '→', ' ': 'Space', Escape: 'Esc', PageDown: 'PgDn', PageUp: 'PgUp' };
  if (names[k]) return names[k];
  return k.split(' ').map((p) => names[p] || p).join(' ');
}

// showHelp fills and opens the help overlay from KEYMAP.
export function showHelp(onClose) {
  const o = document.getElementById('help');
  clear(o);
  const groups = new Map();
  for (const b of KEYMAP) {
    if (!groups.has(b.group)) groups.set(b.group, []);
    groups.get(b.group).push(b);
  }
  const cols = [];
  for (const [name, list] of groups) {
    cols.push(el('section', null, el('h3', { text: name }),
      el('dl', null, list.map((b) => [el('dt', null, b.keys.map((k) => el('kbd', { text: keyLabel(k) }))), el('dd', { text: b.help })]))));
  }
  o.appendChild(el('div', { class: 'help-box', role: 'dialog', 'aria-label': 'Keyboard shortcuts' },
    el('div', { class: 'help-head' }, el('h2', { text: 'Keyboard shortcuts' }), el('button', { type: 'button', class: 'icon-button', text: '×', title: 'Close (Esc)', onclick: onClose })),
    el('div', { class: 'help-cols' }, cols),
    el('p', { class: 'hint', text: 'The same keys as the terminal. Viewed marks, drafts and the cursor are shared with it live.' })));
  o.hidden = false;
}

export function hideHelp() {
  document.getElementById('help').hidden = true;
}

export function helpOpen() {
  return !document.getElementById('help').hidden;
}
