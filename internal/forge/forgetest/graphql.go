package forgetest

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/validator"
	"github.com/vektah/gqlparser/v2/validator/rules"
)

// githubGraphQLSchema is the part of GitHub's public GraphQL schema that
// reads review threads; see testdata/README.md for its provenance. The
// OpenAPI description the REST side is checked against says nothing about
// GraphQL, so POST /graphql is checked against this instead.
//
//go:embed testdata/github-review-threads.graphql
var githubGraphQLSchema string

var loadGraphQLSchema = sync.OnceValues(func() (*ast.Schema, error) {
	s, err := gqlparser.LoadSchema(&ast.Source{Name: "github-review-threads.graphql", Input: githubGraphQLSchema})
	if err != nil {
		return nil, fmt.Errorf("load github graphql schema: %w", err)
	}
	return s, nil
})

// graphQLSchema returns the fake's schema less the "Type.field" entries in
// missing, as an older GitHub Enterprise lacks fields github.com has. The
// shared schema is not modified.
func graphQLSchema(missing []string) (*ast.Schema, error) {
	full, err := loadGraphQLSchema()
	if err != nil || len(missing) == 0 {
		return full, err
	}
	s := *full
	s.Types = make(map[string]*ast.Definition, len(full.Types))
	for name, def := range full.Types {
		s.Types[name] = def
	}
	for _, m := range missing {
		typ, field, ok := strings.Cut(m, ".")
		def := s.Types[typ]
		if !ok || def == nil || def.Fields.ForName(field) == nil {
			return nil, fmt.Errorf("remove %q from the github graphql schema: no such field", m)
		}
		cut := *def
		cut.Fields = slices.DeleteFunc(slices.Clone(def.Fields), func(f *ast.FieldDefinition) bool { return f.Name == field })
		s.Types[typ] = &cut
	}
	return &s, nil
}

// gqlRequest is the body of a GraphQL request.
type gqlRequest struct {
	Query         string         `json:"query"`
	Variables     map[string]any `json:"variables"`
	OperationName string         `json:"operationName"`
}

// gqlError is one entry of a GraphQL answer's errors, in GitHub's shape:
// graphql-ruby's extensions for a query that does not validate, a type
// such as NOT_FOUND for one that fails while running.
type gqlError struct {
	Type       string         `json:"type,omitempty"`
	Path       []any          `json:"path,omitempty"`
	Extensions map[string]any `json:"extensions,omitempty"`
	Locations  []gqlLocation  `json:"locations,omitempty"`
	Message    string         `json:"message"`
}

type gqlLocation struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

// gqlQuery is a request that parsed and validated: the operation to run and
// its variables, coerced to the declared types.
type gqlQuery struct {
	op   *ast.OperationDefinition
	vars map[string]any
}

// decodeGraphQL reads a request body strictly: a field GitHub would ignore
// is a client mistake the fake reports.
func decodeGraphQL(body []byte) (gqlRequest, *gqlError) {
	var req gqlRequest
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	dec.UseNumber()
	if err := dec.Decode(&req); err != nil {
		return req, &gqlError{Message: fakeWording("Problems parsing JSON: " + err.Error())}
	}
	return req, nil
}

// parseGraphQL parses and validates req against schema. On failure it
// returns the errors to answer with; removed reports that every one of them
// is about a field in missing, which a test asked for and so is no
// violation.
func parseGraphQL(schema *ast.Schema, req gqlRequest, missing []string) (q gqlQuery, errs []gqlError, removed bool) {
	if strings.TrimSpace(req.Query) == "" {
		return q, []gqlError{{Message: fakeWording("A query attribute must be specified and must be a string.")}}, false
	}
	doc, list := gqlparser.LoadQueryWithRules(schema, req.Query, rules.NewDefaultRules())
	if len(list) > 0 {
		removed = true
		for _, e := range list {
			ge, field := githubValidationError(e)
			errs = append(errs, ge)
			removed = removed && slices.Contains(missing, field)
		}
		return q, errs, removed
	}
	op := doc.Operations.ForName(req.OperationName)
	if op == nil {
		return q, []gqlError{{Message: fakeWording(fmt.Sprintf("No operation named %q", req.OperationName))}}, false
	}
	vars, err := validator.VariableValues(schema, op, req.Variables)
	if err != nil {
		msg := err.Error()
		var ge *gqlerror.Error
		if e, ok := err.(*gqlerror.Error); ok {
			ge = e
			msg = fmt.Sprintf("Variable $%s of type %s was provided invalid value: %s", variableName(ge), variableType(op, variableName(ge)), ge.Message)
		}
		return q, []gqlError{{Message: fakeWording(msg), Extensions: map[string]any{"code": "variableMismatch"}}}, false
	}
	return gqlQuery{op: op, vars: vars}, nil, false
}

var undefinedField = regexp.MustCompile(`^Cannot query field "(\w+)" on type "(\w+)"`)

// githubValidationError rewords one of gqlparser's validation errors as
// GitHub words it. field is "Type.field" for an unknown field, else "".
func githubValidationError(e *gqlerror.Error) (ge gqlError, field string) {
	for _, l := range e.Locations {
		ge.Locations = append(ge.Locations, gqlLocation{Line: l.Line, Column: l.Column})
	}
	if m := undefinedField.FindStringSubmatch(e.Message); m != nil {
		ge.Message = fmt.Sprintf("Field '%s' doesn't exist on type '%s'", m[1], m[2])
		ge.Extensions = map[string]any{"code": "undefinedField", "typeName": m[2], "fieldName": m[1]}
		return ge, m[2] + "." + m[1]
	}
	ge.Message = fakeWording(e.Message)
	return ge, ""
}

func variableName(e *gqlerror.Error) string {
	if len(e.Path) > 1 {
		return fmt.Sprint(e.Path[1])
	}
	return ""
}

func variableType(op *ast.OperationDefinition, name string) string {
	if v := op.VariableDefinitions.ForName(name); v != nil {
		return v.Type.String()
	}
	return "?"
}
