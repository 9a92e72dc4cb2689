// Package web is the browser surface: one review page, embedded in the
// binary, served by the daemon at "/". The page is hand-written HTML, CSS
// and JavaScript modules (no build step); it talks only to the daemon's
// /api/v1 on the session cookie, like any other client, and follows the
// review live over the session's event stream.
//
// What the page may do is fixed by the headers Handler sends: scripts and
// styles from this origin only, no plugins, no framing, no referrer. Text
// from a diff or a comment is never parsed as HTML: the page builds its DOM
// with createElement and textContent, which web_test.go checks by scanning
// the embedded scripts.
//
// The scripts under assets/js, from the bottom up:
//   - dom.js: element building (the only way the page makes DOM);
//   - api.js: the /api/v1 client and the event stream; writes carry as_of;
//   - model.js: the changeset numbered once (Changes) and laid out as a flat
//     item index with offsets in row units (Layout), unified or split;
//   - view.js: the virtualized list over such an index (on-screen items and
//     an overscan only, one fixed row height, a scaled scroll past the
//     browser's element-height limit);
//   - syntax.js, text.js: per-line colouring, the core's Display rendition
//     with its escapes, and Row.emph (UTF-16, used as it is);
//   - rows.js, sidebar.js, editor.js, notify.js, keys.js: what is drawn;
//   - app.js, drafts.js, cursor.js, input.js: the review's state and the
//     actions keys and clicks lead to; main.js picks the review and starts.
package web
