// Package httpapi is app.Service over HTTP/JSON under /api/v1: the
// handlers the daemon serves (decode, call app, encode; one file per
// resource) and the Go client that implements app.Service against them, so
// the terminal UI cannot tell a daemon-held review from an in-process one.
//
// The HTTP API speaks for the human: every write it carries is made as
// session.ActorHuman, and a request body has no author field (one that
// names an author is refused). The agent reaches a session through MCP.
// Authentication, Host and Origin checks and body limits are the daemon's
// (internal/daemon), which wraps Handler.
//
// Wire types are declared here, separate from the domain types, except the
// changeset itself, which is served exactly as the core encodes it. Errors
// are {"code": ..., "message": ...} with the status errorStatus gives; a
// stale write adds "as_of", the current digest. docs/api.md lists the
// endpoints.
package httpapi
