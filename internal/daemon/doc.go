// Package daemon is leanreview's per-user background process: it holds the
// live reviews (an app.Registry) and serves them over HTTP on loopback to
// the terminal UI, the browser page and the agent's MCP transport.
//
// Its security rests on five checks, each tested:
//   - it listens on a loopback address only (Listen refuses any other);
//   - every API request carries the 256-bit bearer token from the discovery
//     file (mode 0600 in a 0700 directory) or a session cookie obtained by
//     exchanging a one-time login code;
//   - the Host header must name the daemon's loopback address and port, so
//     a DNS-rebinding page cannot reach it under another name;
//   - a write carrying an Origin must be same-origin, and a cookie-carrying
//     request must not come from another site (Sec-Fetch-Site), so a page
//     on another local port cannot use the browser's cookie;
//   - request bodies are capped.
//
// One daemon runs per user: Serve holds an exclusive lock in the runtime
// directory for its life, and Connect (used by `leanreview --share` and
// `leanreview mcp`) joins the running daemon, asks one of another version
// to stop, and starts one when there is none.
package daemon
