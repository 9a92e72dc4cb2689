package forgetest

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

// githubSpec is GitHub's official OpenAPI description cut down to the
// review operations; see testdata/README.md for its provenance.
//
//go:embed testdata/pulls-review-subset.json
var githubSpec []byte

// specRouter is the parsed description and its router, loaded once per test
// binary (~0.1 s) and read-only afterwards.
type specRouter struct {
	doc    *openapi3.T
	router routers.Router
}

var loadGitHubSpec = sync.OnceValues(func() (*specRouter, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(githubSpec)
	if err != nil {
		return nil, fmt.Errorf("load github openapi subset: %w", err)
	}
	doc.Servers = openapi3.Servers{{URL: "/"}}
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		return nil, fmt.Errorf("route github openapi subset: %w", err)
	}
	return &specRouter{doc: doc, router: router}, nil
})

// anyEndpointStatuses are answers GitHub gives on every endpoint whether or
// not an operation declares them: authentication, rate limits, outages.
// Their bodies are still checked against basic-error.
var anyEndpointStatuses = map[int]bool{401: true, 403: true, 429: true, 500: true, 502: true, 503: true}

// checkedRequest is a request the spec routed and accepted.
type checkedRequest struct {
	input *openapi3filter.RequestValidationInput
	body  []byte
}

// validateRequest routes r through the spec and validates it, leaving r.Body
// readable again. The error says what the spec refused.
func (s *specRouter) validateRequest(r *http.Request) (*checkedRequest, error) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, fmt.Errorf("read request body: %w", err)
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	route, params, err := s.router.FindRoute(r)
	if err != nil {
		return nil, fmt.Errorf("%s %s is not an operation of the spec: %w", r.Method, r.URL.Path, err)
	}
	in := &openapi3filter.RequestValidationInput{
		Request: r, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, SkipSettingDefaults: true,
			RejectWhenRequestBodyNotSpecified: true, MultiError: true},
	}
	err = openapi3filter.ValidateRequest(context.Background(), in)
	r.Body = io.NopCloser(bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("request %s %s violates %s: %w", r.Method, r.URL.Path, route.Operation.OperationID, err)
	}
	return &checkedRequest{input: in, body: body}, nil
}

// validateResponse checks an answer against the operation's declared
// responses. rawMedia marks an answer in a media type the spec describes
// only in prose (the .diff of a pull request): its status is checked, not
// its body.
func (s *specRouter) validateResponse(req *checkedRequest, status int, header http.Header, body []byte, rawMedia bool) error {
	op := req.input.Route.Operation
	if op.Responses.Status(status) == nil && op.Responses.Default() == nil {
		if !anyEndpointStatuses[status] {
			return fmt.Errorf("%s answered %d, which it does not declare", op.OperationID, status)
		}
		return s.validateBasicError(op.OperationID, status, body)
	}
	if rawMedia {
		if status != http.StatusOK {
			return fmt.Errorf("%s answered %d in a raw media type", op.OperationID, status)
		}
		return nil
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: req.input, Status: status, Header: header,
		Options: &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
	}
	in.SetBodyBytes(body)
	if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
		return fmt.Errorf("answer %d of %s violates the spec: %w", status, op.OperationID, err)
	}
	return nil
}

func (s *specRouter) validateBasicError(opID string, status int, body []byte) error {
	ref := s.doc.Components.Schemas["basic-error"]
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return fmt.Errorf("%s answered %d with a body that is not JSON: %q", opID, status, body)
	}
	if err := ref.Value.VisitJSON(v); err != nil {
		return fmt.Errorf("%s answered %d with a body that is not a basic-error: %w", opID, status, err)
	}
	return nil
}

// shortErr trims a validation error to its first lines for a failure
// message; kin-openapi's full text repeats the whole schema.
func shortErr(err error) string {
	lines := strings.SplitN(err.Error(), "\n", 6)
	if len(lines) > 5 {
		lines = append(lines[:5], "...")
	}
	return strings.Join(lines, "\n")
}
