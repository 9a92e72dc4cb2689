// input.js routes the keyboard and the mouse to the App's actions. Keys
// come from the one table in keys.js; typing in a text field is left alone.
import { FILE, HUNK, LINE, rowSide } from './model.js';
import { Keys, showHelp, hideHelp, helpOpen } from './keys.js';

export function bindInput(app) {
  const keys = new Keys();
  document.addEventListener('keydown', (e) => {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.target.closest && e.target.closest('input, textarea, select')) return;
    if (helpOpen()) {
      if (e.key === 'Escape' || e.key === '?') {
        e.preventDefault();
        hideHelp();
      }
      return;
    }
    const action = keys.match(e.key);
    if (action === null) return;
    e.preventDefault();
    if (action) act(app, action);
  });

  const diff = app.diffEl;
  diff.addEventListener('mousedown', (e) => {
    // A shift-click selects lines, not text.
    if (e.shiftKey && e.target.closest('.row.line')) e.preventDefault();
  });
  diff.addEventListener('click', (e) => {
    if (e.target.closest('button, textarea, input, a, .cbox')) return;
    const rowEl = e.target.closest('[data-item]');
    if (!rowEl) return;
    const L = app.layout;
    const i = Number(rowEl.dataset.item);
    if (L.kind[i] === LINE) {
      const half = e.target.closest('.half');
      const side = half ? half.dataset.side || 'new' : rowSide(L.row(i, false), 'new');
      if (e.shiftKey && L.kind[app.focus] === LINE) {
        if (!app.drafts.sel) app.drafts.sel = { from: app.focusPos, to: app.focusPos, side: app.focusCursor().side };
        app.setFocus(i, app.drafts.sel.side);
      } else {
        app.drafts.clearSelection();
        app.setFocus(i, side);
      }
    } else if (L.kind[i] === FILE) {
      app.drafts.clearSelection();
      app.setFocus(i, 'new');
    } else if (L.kind[i] === HUNK) {
      app.drafts.clearSelection();
      app.setFocus(L.step(i, 1), app.focusSide);
    }
    app.focusDiff();
  });

  document.getElementById('view-unified').addEventListener('click', () => app.setSplit(false));
  document.getElementById('view-split').addEventListener('click', () => app.setSplit(true));
  document.getElementById('help-button').addEventListener('click', () => showHelp(hideHelp));
  document.getElementById('help').addEventListener('click', (e) => {
    if (e.target.id === 'help') hideHelp();
  });
}

// act performs one keymap action.
export function act(app, action) {
  const L = app.layout;
  const i = app.focus;
  const go = (j, how) => { if (j >= 0) app.setFocus(j, app.focusSide, { how, send: j !== i }); };
  const f = i >= 0 ? L.file[i] : 0;
  const ch = app.ch;
  switch (action) {
    case 'down': return go(L.step(i, 1));
    case 'up': return go(L.step(i, -1));
    case 'nextChange': return go(L.nextChange(i, 1), 'center');
    case 'prevChange': return go(L.nextChange(i, -1), 'center');
    case 'nextHunk': {
      const g = L.kind[i] === FILE ? ch.hunkBase[f] : L.hunk[i] + 1;
      if (g < ch.hunkCount) go(L.step(L.hunkItem[g], 1), 'top');
      return;
    }
    case 'prevHunk': {
      if (L.kind[i] === FILE) {
        const g = ch.hunkBase[f] - 1;
        if (g >= 0) go(L.step(L.hunkItem[g], 1), 'top');
        return;
      }
      const g = L.hunk[i];
      const first = L.step(L.hunkItem[g], 1);
      if (i > first) go(first, 'top');
      else if (g > 0) go(L.step(L.hunkItem[g - 1], 1), 'top');
      return;
    }
    case 'nextFile': if (f + 1 < ch.files.length) go(L.fileItem[f + 1], 'top'); return;
    case 'prevFile': {
      const fi = L.fileItem[f];
      if (i > fi) go(fi, 'top');
      else if (f > 0) go(L.fileItem[f - 1], 'top');
      return;
    }
    case 'top': return go(0, 'top');
    case 'bottom': return go(L.step(L.n, -1));
    case 'pageDown':
    case 'pageUp': {
      const dir = action === 'pageDown' ? 1 : -1;
      const u = L.top[i] + dir * app.list.pageUnits();
      let j = L.itemAtUnit(Math.max(0, u));
      if (!L.focusable(j)) j = L.step(j, dir);
      app.list.setVirtualTop(app.list.virtualTop() + dir * app.list.pageUnits() * app.rowH);
      return go(j);
    }
    case 'sideOld':
    case 'sideNew':
      if (L.split && L.kind[i] === LINE) app.setFocus(i, action === 'sideOld' ? 'old' : 'new');
      return;
    case 'pickFile': {
      const input = document.getElementById('file-filter');
      focusAfterKey(input);
      input.select();
      return;
    }
    case 'toggleView': return app.setSplit(!app.split);
    case 'follow': {
      app.cursor.follow = !app.cursor.follow;
      const box = document.getElementById('follow');
      if (box) box.checked = app.cursor.follow;
      return;
    }
    case 'comment': return app.drafts.commentAt(i, app.focusSide, true);
    case 'select':
      if (app.drafts.sel) app.drafts.commentAt(i, app.drafts.sel.side, true);
      else app.drafts.startSelection();
      return;
    case 'edit': {
      const d = app.drafts.draftOnFocus();
      if (d) app.drafts.editDraft(d, true);
      return;
    }
    case 'delete': {
      const d = app.drafts.draftOnFocus();
      if (d) app.drafts.deleteDraft(d);
      return;
    }
    case 'cancel':
      if (app.drafts.editor) app.drafts.closeEditor();
      else app.drafts.clearSelection();
      return;
    case 'viewed':
      if (L.kind[i] === FILE) app.toggleFileViewed(f);
      else if (L.hunk[i] >= 0) app.toggleViewed(L.hunk[i]);
      return;
    case 'help': return showHelp(hideHelp);
  }
}

// focusAfterKey focuses a text field from a key handler. A character that
// reaches the field before any key is pressed in it is the tail of the key
// that focused it (f), not typing, and is dropped.
function focusAfterKey(field) {
  let armed = true;
  const disarm = () => { armed = false; };
  field.addEventListener('keydown', disarm, { once: true });
  field.addEventListener('beforeinput', (e) => { if (armed) e.preventDefault(); armed = false; }, { once: true });
  field.focus();
}
