package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/leanreview/leanreview/internal/app"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Resolver names the review an HTTP request is for: the daemon holds one
// session per review source and decides how a request picks one (a path
// segment, a query parameter). It returns an error wrapping app.ErrNotFound
// for a review it does not hold. It is called once per request and may be
// called concurrently.
type Resolver func(*http.Request) (app.Service, error)

// MountPattern is where the daemon mounts a Handler built with
// PathResolver: one MCP endpoint per live review, named by its session id
// (the source's identity key). EndpointPath builds the same path for a
// client.
const MountPattern = "/mcp/{id}"

// EndpointPath is the path of the MCP endpoint of session id under
// MountPattern.
func EndpointPath(id string) string { return "/mcp/" + url.PathEscape(id) }

// PathResolver resolves the {id} path value of MountPattern with get (the
// daemon's registry lookup, app.Registry.Get).
func PathResolver(get func(id string) (app.Service, bool)) Resolver {
	return func(r *http.Request) (app.Service, error) {
		id := r.PathValue("id")
		if svc, ok := get(id); ok {
			return svc, nil
		}
		return nil, fmt.Errorf("no review %q is open in the daemon; open it first (leanreview mcp SOURCE does): %w", id, app.ErrNotFound)
	}
}

// sessionIdle is how long an MCP session over HTTP may go without a request
// before it is closed; agent hosts reconnect transparently.
const sessionIdle = 30 * time.Minute

// Handler serves MCP over the streamable HTTP transport: POST for requests,
// GET for the server's stream, DELETE to end a session. Every write is made
// as the agent, as over stdio.
//
// It authenticates nobody: the daemon mounts it behind its bearer-token,
// Host and Origin checks. The SDK additionally refuses a request that
// reached a loopback address with a non-loopback Host header.
type Handler struct {
	resolve Resolver
	opts    Options

	mu       sync.Mutex
	handlers map[app.Service]*sdk.StreamableHTTPHandler
}

// NewHandler returns a Handler serving the reviews resolve names. Services
// resolve returns must be comparable (pointers, as every app.Service is):
// one MCP server is kept per service for the handler's life.
func NewHandler(resolve Resolver, opts Options) *Handler {
	return &Handler{resolve: resolve, opts: opts, handlers: map[app.Service]*sdk.StreamableHTTPHandler{}}
}

// ServeHTTP implements http.Handler.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	svc, err := h.resolve(r)
	if err != nil {
		status, code := http.StatusInternalServerError, "internal"
		if errors.Is(err, app.ErrNotFound) {
			status, code = http.StatusNotFound, "not_found"
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(map[string]string{"code": code, "message": err.Error()})
		return
	}
	h.handlerFor(svc).ServeHTTP(w, r)
}

// handlerFor returns the SDK handler, and so the MCP sessions, of svc.
func (h *Handler) handlerFor(svc app.Service) *sdk.StreamableHTTPHandler {
	h.mu.Lock()
	defer h.mu.Unlock()
	if sh, ok := h.handlers[svc]; ok {
		return sh
	}
	srv := NewServer(svc, h.opts)
	sh := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv },
		&sdk.StreamableHTTPOptions{Logger: h.opts.Logger, SessionTimeout: sessionIdle})
	h.handlers[svc] = sh
	return sh
}
