// api.js is the page's client of the daemon's /api/v1 (docs/api.md). It
// authenticates with the session cookie the login page obtained; every
// write carries as_of, the digest of the changeset the page shows, so a
// write against a change that moved is refused (409 stale) rather than
// landing on the wrong lines.

const PREFIX = '/api/v1';

// ApiError is an error answer: {code, message, as_of?} and the status.
export class ApiError extends Error {
  constructor(status, body) {
    super(body && body.message ? body.message : `HTTP ${status}`);
    this.status = status;
    this.code = body && body.code ? body.code : 'http';
    this.asOf = body && body.as_of ? body.as_of : '';
  }
}

async function request(method, path, body) {
  const init = { method, credentials: 'same-origin', cache: 'no-store', headers: {} };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(PREFIX + path, init);
  } catch (err) {
    throw new ApiError(0, { code: 'offline', message: 'leanreview is not reachable: is the daemon still running?' });
  }
  if (!res.ok) {
    let e = null;
    try { e = await res.json(); } catch (_) { /* not the API's error shape */ }
    throw new ApiError(res.status, e);
  }
  if (res.status === 204) return null;
  return res.json();
}

// listSessions returns the daemon's open reviews.
export async function listSessions() {
  const r = await request('GET', '/sessions');
  return r.sessions || [];
}

// Session is one review: its reads, its writes (as of asOf) and its event
// stream.
export class Session {
  constructor(id) {
    this.id = id;
    this.base = `/sessions/${encodeURIComponent(id)}`;
    // asOf is the digest of the changeset on screen; writes carry it.
    this.asOf = '';
  }

  // changeset fetches the whole change once. It is large (tens of MB for
  // 100,000 lines), so the text and the parse are timed apart as
  // performance marks lr:fetched and lr:parsed.
  async changeset() {
    performance.mark('lr:fetch-start');
    let res;
    try {
      res = await fetch(PREFIX + this.base + '/changeset', { credentials: 'same-origin', cache: 'no-store' });
    } catch (err) {
      throw new ApiError(0, { code: 'offline', message: 'leanreview is not reachable' });
    }
    if (!res.ok) {
      let e = null;
      try { e = await res.json(); } catch (_) { /* ignore */ }
      throw new ApiError(res.status, e);
    }
    const text = await res.text();
    performance.mark('lr:fetched');
    const cs = JSON.parse(text);
    performance.mark('lr:parsed');
    return { cs, bytes: text.length };
  }

  state() { return request('GET', this.base + '/state'); }
  reload() { return request('POST', this.base + '/reload', {}); }

  setCursor(c) { return request('PUT', this.base + '/cursor', { as_of: this.asOf, ...c }); }
  markViewed(digest, viewed) { return request('POST', this.base + '/viewed', { as_of: this.asOf, digest, viewed }); }
  comment(lines, body) { return request('POST', this.base + '/comments', { as_of: this.asOf, ...lines, body }); }
  editComment(id, body) { return request('PATCH', `${this.base}/comments/${encodeURIComponent(id)}`, { as_of: this.asOf, body }); }
  deleteComment(id) {
    return request('DELETE', `${this.base}/comments/${encodeURIComponent(id)}?as_of=${encodeURIComponent(this.asOf)}`);
  }
  // restoreComment puts back a draft deleteComment returned (undo).
  restoreComment(d) {
    const draft = { id: d.id, anchor: d.anchor, digest: d.digest, body: d.body, resolved: d.resolved, created: d.created, updated: d.updated };
    if (d.reply_to) draft.reply_to = d.reply_to;
    return request('POST', this.base + '/comments/restore', { as_of: this.asOf, draft });
  }
  resolveComment(id, resolved) {
    return request('POST', `${this.base}/comments/${encodeURIComponent(id)}/resolve`, { as_of: this.asOf, resolved });
  }
  answer(id, accept) {
    return request('POST', `${this.base}/suggestions/${encodeURIComponent(id)}/answer`, { as_of: this.asOf, accept });
  }

  // events opens the session's event stream. handler(kind, asOf) is called
  // for hello, changed, reloaded and stale; status(open) when the stream
  // connects or drops (EventSource reconnects by itself).
  events(handler, status) {
    const es = new EventSource(PREFIX + this.base + '/events');
    for (const kind of ['hello', 'changed', 'reloaded', 'stale']) {
      es.addEventListener(kind, (ev) => {
        let asOf = '';
        try { asOf = JSON.parse(ev.data).as_of || ''; } catch (_) { /* keep '' */ }
        handler(kind, asOf);
      });
    }
    es.onopen = () => status(true);
    es.onerror = () => status(false);
    return es;
  }
}
