// main.js starts the page: it finds the review to show (the one named in
// the address's #s=ID, else the only one open, else a choice), and hands it
// to App.
import { listSessions, Session } from './api.js';
import { App } from './app.js';
import { el } from './dom.js';
import { message } from './notify.js';

function chosenID() {
  const m = /(?:^#|&)s=([^&]+)/.exec(location.hash);
  return m ? decodeURIComponent(m[1]) : '';
}

async function boot() {
  let sessions;
  try {
    sessions = await listSessions();
  } catch (err) {
    if (err.status === 401) {
      message('Not logged in', 'This browser has no session with the leanreview daemon. Run ',
        el('code', { text: 'leanreview serve --open' }), ' (or ', el('code', { text: 'leanreview --share SOURCE' }),
        ') and open the link it prints: it logs this browser in once.');
    } else {
      message('leanreview is not reachable', err.message);
    }
    document.body.dataset.state = 'error';
    return;
  }
  const want = chosenID();
  let s = sessions.find((x) => x.id === want);
  if (!s && sessions.length === 1) s = sessions[0];
  if (!s) {
    if (!sessions.length) {
      message('No review is open', 'Open one from a terminal with ', el('code', { text: 'leanreview --share SOURCE' }),
        ', then reload this page.');
    } else {
      message('Choose a review', el('ul', { class: 'sessions' }, sessions.map((x) => el('li', null,
        el('a', { href: '#s=' + encodeURIComponent(x.id), onclick: () => setTimeout(() => location.reload(), 0) },
          x.source.label || x.source.key), el('span', { class: 'dim', text: ` ${x.source.kind}` })))));
    }
    document.body.dataset.state = 'empty';
    return;
  }
  if (location.hash !== '#s=' + encodeURIComponent(s.id)) history.replaceState(null, '', '#s=' + encodeURIComponent(s.id));
  const app = new App(new Session(s.id));
  try {
    await app.start();
  } catch (err) {
    message('The review could not be shown', err.message || String(err));
    document.body.dataset.state = 'error';
  }
}

boot();
