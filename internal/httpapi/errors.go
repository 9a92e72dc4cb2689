package httpapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/session"
)

// Code is an error's machine-readable name on the wire.
type Code string

// Error codes. Each maps to one status (see errorStatus) and, in the
// client, back to the app or session sentinel it came from.
const (
	CodeNotFound     Code = "not_found"        // 404, app.ErrNotFound
	CodeNoSession    Code = "no_session"       // 404, no open session has this id
	CodeNotInChange  Code = "not_in_change"    // 422, app.ErrNotInChange
	CodeInvalid      Code = "invalid"          // 400, app.ErrInvalid, or a malformed body
	CodeForbidden    Code = "forbidden"        // 403, session.ErrForbidden
	CodeStale        Code = "stale"            // 409, app.ErrStale; the body carries as_of
	CodeNotSaved     Code = "not_saved"        // 507, app.ErrNotSaved: kept in memory only
	CodeTooLarge     Code = "too_large"        // 413, the body is over the daemon's cap
	CodeUnauthorized Code = "unauthorized"     // 401, no or a wrong token or cookie
	CodeBadHost      Code = "host_not_allowed" // 403, the Host header is not the daemon's
	CodeBadOrigin    Code = "cross_origin"     // 403, a browser write from another origin
	CodeInternal     Code = "internal"         // 500
	CodeUnavailable  Code = "unavailable"      // 503, the daemon is shutting down
)

// ErrorBody is every error response.
type ErrorBody struct {
	Code    Code   `json:"code"`
	Message string `json:"message"`
	// AsOf is the current changeset digest, for CodeStale.
	AsOf string `json:"as_of,omitempty"`
}

var codeStatus = map[Code]int{
	CodeNotFound:     http.StatusNotFound,
	CodeNoSession:    http.StatusNotFound,
	CodeNotInChange:  http.StatusUnprocessableEntity,
	CodeInvalid:      http.StatusBadRequest,
	CodeForbidden:    http.StatusForbidden,
	CodeStale:        http.StatusConflict,
	CodeNotSaved:     http.StatusInsufficientStorage,
	CodeTooLarge:     http.StatusRequestEntityTooLarge,
	CodeUnauthorized: http.StatusUnauthorized,
	CodeBadHost:      http.StatusForbidden,
	CodeBadOrigin:    http.StatusForbidden,
	CodeInternal:     http.StatusInternalServerError,
	CodeUnavailable:  http.StatusServiceUnavailable,
}

// WriteError writes body with the status its code maps to. The daemon uses
// it for the checks it makes before a request reaches Handler.
func WriteError(w http.ResponseWriter, body ErrorBody) {
	status, ok := codeStatus[body.Code]
	if !ok {
		status = http.StatusInternalServerError
	}
	writeJSON(w, status, body)
}

// errorBody translates an error of app, session or the decoder into its wire
// form: the one place a Go error becomes a status.
func errorBody(err error) ErrorBody {
	var stale *app.StaleError
	var tooBig *http.MaxBytesError
	var bad badRequest
	switch {
	case errors.As(err, &stale):
		return ErrorBody{Code: CodeStale, Message: err.Error(), AsOf: stale.Current}
	case errors.As(err, &tooBig):
		return ErrorBody{Code: CodeTooLarge, Message: fmt.Sprintf("the request body is over %d bytes", tooBig.Limit)}
	case errors.As(err, &bad):
		return ErrorBody{Code: CodeInvalid, Message: err.Error()}
	case errors.Is(err, session.ErrForbidden):
		return ErrorBody{Code: CodeForbidden, Message: err.Error()}
	case errors.Is(err, app.ErrNotInChange):
		return ErrorBody{Code: CodeNotInChange, Message: err.Error()}
	case errors.Is(err, app.ErrNotFound):
		return ErrorBody{Code: CodeNotFound, Message: err.Error()}
	case errors.Is(err, app.ErrInvalid):
		return ErrorBody{Code: CodeInvalid, Message: err.Error()}
	case errors.Is(err, app.ErrNotSaved):
		return ErrorBody{Code: CodeNotSaved, Message: err.Error()}
	}
	return ErrorBody{Code: CodeInternal, Message: err.Error()}
}

// badRequest is a body the handler could not decode.
type badRequest struct{ err error }

func (b badRequest) Error() string { return b.err.Error() }
func (b badRequest) Unwrap() error { return b.err }

// Error is an error response as the client receives it. Unwrap gives the
// app or session sentinel its Code stands for, so errors.Is works the same
// against the client as against app.Local.
type Error struct {
	Status int
	ErrorBody
}

func (e *Error) Error() string { return e.Message }

// Unwrap returns the sentinel e.Code stands for, nil for a transport error.
func (e *Error) Unwrap() error {
	switch e.Code {
	case CodeNotFound, CodeNoSession:
		return app.ErrNotFound
	case CodeNotInChange:
		return app.ErrNotInChange
	case CodeInvalid:
		return app.ErrInvalid
	case CodeForbidden:
		return session.ErrForbidden
	case CodeStale:
		return app.ErrStale
	case CodeNotSaved:
		return app.ErrNotSaved
	}
	return nil
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
