// notify.js tells the reader things: short-lived toasts, the stale banner,
// and a full-page message when there is nothing to review.
import { el, clear } from './dom.js';

// toast shows text for a few seconds; action, when given, is
// {label, run} and adds a button (Undo).
export function toast(text, action, kind = 'info') {
  const box = document.getElementById('toasts');
  const t = el('div', { class: 'toast ' + kind, role: kind === 'error' ? 'alert' : 'status' }, el('span', { text }));
  if (action) {
    t.appendChild(el('button', { type: 'button', text: action.label, onclick: () => { t.remove(); action.run(); } }));
  }
  box.appendChild(t);
  setTimeout(() => t.remove(), action ? 8000 : 4500);
}

// banner shows a persistent notice with a button, or hides it (text null).
export function banner(text, button) {
  const b = document.getElementById('banner');
  clear(b);
  if (!text) {
    b.hidden = true;
    return;
  }
  b.appendChild(el('span', { text }));
  if (button) b.appendChild(el('button', { type: 'button', class: 'primary', text: button.label, onclick: button.run }));
  b.hidden = false;
}

// message replaces the page with a notice (no review to show, not logged
// in); kids are nodes or strings.
export function message(title, ...kids) {
  const m = document.getElementById('message');
  clear(m);
  m.appendChild(el('div', { class: 'message-box' }, el('h1', { text: title }), ...kids));
  m.hidden = false;
  document.getElementById('main').hidden = true;
}
