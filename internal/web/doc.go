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
package web
