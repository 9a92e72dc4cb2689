package forgetest

import (
	"encoding/base64"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
)

// gqlExec runs one validated query over the fake GitHub's state, the way a
// GraphQL server does: fields in selection order, aliases honoured, a
// failed field null with an entry in errs, and a null in a non-null field
// making its parent null. The caller holds g.mu for the whole run.
type gqlExec struct {
	g      *GitHub
	schema *ast.Schema
	vars   map[string]any
	errs   []gqlError
	// violations are client mistakes (pagination past GitHub's limits, a
	// cursor the fake never gave), recorded once g.mu is released.
	violations []string
}

// The values a query walks through. Each connection item is a gqlNode so
// that a cursor can name it.
type (
	gqlRoot struct{}
	gqlRepo struct{ full string }
	gqlNode interface{ cursorID() int64 }
	// gqlThread is one review thread: its root comment and every comment,
	// the root first.
	gqlThread struct {
		root     *ghComment
		comments []gqlNode
	}
	gqlConn struct {
		page  []gqlNode
		total int
		info  gqlPageInfo
	}
	// gqlEdge wraps a node; it is a gqlNode itself so that edges travel in
	// a list like the nodes do.
	gqlEdge     struct{ node gqlNode }
	gqlPageInfo struct {
		start, end         any // cursor string, or nil on an empty page
		hasNext, hasBefore bool
	}
)

func (t *gqlThread) cursorID() int64 { return t.root.id }
func (c *ghComment) cursorID() int64 { return c.id }
func (e gqlEdge) cursorID() int64    { return e.node.cursorID() }

// gqlCursor is an opaque cursor in GitHub's style; it names the item, so a
// page stays put when items are added after it.
func gqlCursor(n gqlNode) string {
	return base64.StdEncoding.EncodeToString([]byte("cursor:v2:" + strconv.FormatInt(n.cursorID(), 10)))
}

func (x *gqlExec) run(op *ast.OperationDefinition) any {
	data, ok := x.selectSet("Query", gqlRoot{}, op.SelectionSet, nil)
	if !ok {
		return nil
	}
	return data
}

// selectSet resolves sel on parent, a value of GraphQL type typeName. ok is
// false when a non-null field came out null, which nulls parent too.
func (x *gqlExec) selectSet(typeName string, parent any, sel ast.SelectionSet, path []any) (obj, bool) {
	out := obj{}
	for _, f := range x.fields(typeName, sel) {
		at := append(slices.Clone(path), f.Alias)
		if f.Name == "__typename" {
			out[f.Alias] = typeName
			continue
		}
		v, err := x.resolve(parent, f)
		if err != nil {
			err.Path = at
			if f.Position != nil {
				err.Locations = []gqlLocation{{Line: f.Position.Line, Column: f.Position.Column}}
			}
			x.errs = append(x.errs, *err)
			v = nil
		}
		cv, ok := x.complete(f.Definition.Type, v, f.SelectionSet, at)
		if !ok {
			return nil, false
		}
		out[f.Alias] = cv
	}
	return out, true
}

// complete turns a resolved value into the JSON of type t; ok is false when
// t is non-null and the value came out null.
func (x *gqlExec) complete(t *ast.Type, v any, sel ast.SelectionSet, path []any) (any, bool) {
	if v == nil {
		return nil, !t.NonNull
	}
	if t.Elem != nil {
		items := v.([]gqlNode)
		out := make([]any, 0, len(items))
		for i, it := range items {
			cv, ok := x.complete(t.Elem, it, sel, append(slices.Clone(path), i))
			if !ok {
				return nil, !t.NonNull
			}
			out = append(out, cv)
		}
		return out, true
	}
	if len(sel) == 0 {
		return v, true
	}
	o, ok := x.selectSet(t.NamedType, v, sel, path)
	if !ok {
		return nil, !t.NonNull
	}
	return o, true
}

// fields flattens sel for an object of type typeName: fragments whose
// condition the type meets are spread, @skip and @include obeyed.
func (x *gqlExec) fields(typeName string, sel ast.SelectionSet) []*ast.Field {
	var out []*ast.Field
	applies := func(cond string) bool {
		def := x.schema.Types[typeName]
		return cond == "" || cond == typeName || (def != nil && slices.Contains(def.Interfaces, cond))
	}
	for _, s := range sel {
		switch s := s.(type) {
		case *ast.Field:
			if x.included(s.Directives) {
				out = append(out, s)
			}
		case *ast.InlineFragment:
			if x.included(s.Directives) && applies(s.TypeCondition) {
				out = append(out, x.fields(typeName, s.SelectionSet)...)
			}
		case *ast.FragmentSpread:
			if x.included(s.Directives) && applies(s.Definition.TypeCondition) {
				out = append(out, x.fields(typeName, s.Definition.SelectionSet)...)
			}
		}
	}
	return out
}

func (x *gqlExec) included(ds ast.DirectiveList) bool {
	for _, d := range ds {
		if d.Name != "skip" && d.Name != "include" {
			continue
		}
		v, _ := d.ArgumentMap(x.vars)["if"].(bool)
		if v == (d.Name == "skip") {
			return false
		}
	}
	return true
}

// resolve is one field of parent. A failure is the error GitHub would put
// in the answer's errors; the caller fills in its path and location.
func (x *gqlExec) resolve(parent any, f *ast.Field) (any, *gqlError) {
	args := f.ArgumentMap(x.vars)
	switch p := parent.(type) {
	case gqlRoot:
		if f.Name == "repository" {
			return x.repository(args)
		}
	case *gqlRepo:
		switch f.Name {
		case "id":
			return "R_" + base64.RawStdEncoding.EncodeToString([]byte(p.full)), nil
		case "name":
			_, name, _ := strings.Cut(p.full, "/")
			return name, nil
		case "nameWithOwner":
			return p.full, nil
		case "pullRequest":
			return x.pullRequest(p, args)
		}
	case *ghPull:
		switch f.Name {
		case "id":
			return "PR_" + strconv.Itoa(p.number), nil
		case "number":
			return p.number, nil
		case "title":
			return p.title, nil
		case "reviewThreads":
			return x.connection(f.Name, x.g.gqlThreads(p), args)
		}
	case *gqlThread:
		return x.thread(p, f, args)
	case *ghComment:
		return x.comment(p, f)
	case *gqlConn:
		return x.conn(p, f)
	case gqlEdge:
		switch f.Name {
		case "cursor":
			return gqlCursor(p.node), nil
		case "node":
			return p.node, nil
		}
	case gqlPageInfo:
		switch f.Name {
		case "startCursor":
			return p.start, nil
		case "endCursor":
			return p.end, nil
		case "hasNextPage":
			return p.hasNext, nil
		case "hasPreviousPage":
			return p.hasBefore, nil
		}
	}
	x.violations = append(x.violations, fmt.Sprintf("the fake does not resolve %s.%s", f.ObjectDefinition.Name, f.Name))
	return nil, &gqlError{Message: fakeWording("fake GitHub: field not implemented: " + f.Name)}
}

func (x *gqlExec) repository(args map[string]any) (any, *gqlError) {
	full := fmt.Sprintf("%s/%s", args["owner"], args["name"])
	for _, p := range x.g.pulls {
		if p.repo == full {
			return &gqlRepo{full: full}, nil
		}
	}
	return nil, &gqlError{Type: "NOT_FOUND", Message: fakeWording(fmt.Sprintf("Could not resolve to a Repository with the name '%s'.", full))}
}

func (x *gqlExec) pullRequest(r *gqlRepo, args map[string]any) (any, *gqlError) {
	n, _ := args["number"].(int64)
	if p := x.g.pulls[pullKey(r.full, int(n))]; p != nil {
		return p, nil
	}
	return nil, &gqlError{Type: "NOT_FOUND", Message: fmt.Sprintf("Could not resolve to a PullRequest with the number of %d.", n)}
}

func (x *gqlExec) thread(t *gqlThread, f *ast.Field, args map[string]any) (any, *gqlError) {
	c := t.root
	switch f.Name {
	case "comments":
		return x.connection(f.Name, t.comments, args)
	case "diffSide":
		return c.side, nil
	case "id":
		return fmt.Sprintf("PRRT_%d", c.id), nil
	case "isCollapsed", "isResolved":
		return c.resolved, nil
	case "isOutdated":
		return c.outdated, nil
	case "line":
		if c.outdated {
			return nil, nil
		}
		return c.line, nil
	case "path":
		return c.path, nil
	case "startLine":
		if c.outdated || c.startLine == 0 {
			return nil, nil
		}
		return c.startLine, nil
	}
	return x.resolve(nil, f)
}

func (x *gqlExec) comment(c *ghComment, f *ast.Field) (any, *gqlError) {
	switch f.Name {
	case "body":
		return c.body, nil
	case "databaseId":
		return c.id, nil
	case "fullDatabaseId":
		// BigInt travels as a string.
		return strconv.FormatInt(c.id, 10), nil
	case "id":
		return fmt.Sprintf("PRRC_%d", c.id), nil
	case "path":
		return c.path, nil
	}
	return x.resolve(nil, f)
}

func (x *gqlExec) conn(c *gqlConn, f *ast.Field) (any, *gqlError) {
	switch f.Name {
	case "nodes":
		return c.page, nil
	case "edges":
		edges := make([]gqlNode, len(c.page))
		for i, n := range c.page {
			edges[i] = gqlEdge{node: n}
		}
		return edges, nil
	case "pageInfo":
		return c.info, nil
	case "totalCount":
		return c.total, nil
	}
	return x.resolve(nil, f)
}

// connection cuts one page out of items by first/after, last/before (and
// skip), with GitHub's rule that every connection names first or last, at
// most 100.
func (x *gqlExec) connection(name string, items []gqlNode, args map[string]any) (any, *gqlError) {
	first, hasFirst := args["first"].(int64)
	last, hasLast := args["last"].(int64)
	if !hasFirst && !hasLast {
		x.violations = append(x.violations, "no first or last on "+name)
		return nil, &gqlError{Type: "MISSING_PAGINATION_BOUNDARIES",
			Message: fakeWording(fmt.Sprintf("You must provide a `first` or `last` value to properly paginate the `%s` connection.", name))}
	}
	for _, lim := range []struct {
		arg string
		n   int64
		set bool
	}{{"first", first, hasFirst}, {"last", last, hasLast}} {
		if lim.set && (lim.n > 100 || lim.n < 0) {
			x.violations = append(x.violations, fmt.Sprintf("%s: %d on %s", lim.arg, lim.n, name))
			return nil, &gqlError{Type: "EXCESSIVE_PAGINATION",
				Message: fmt.Sprintf("Requesting %d records on the `%s` connection exceeds the `%s` limit of 100 records.", lim.n, name, lim.arg)}
		}
	}
	lo, hi := 0, len(items)
	for _, c := range []struct {
		arg  string
		at   *int
		step int
	}{{"after", &lo, 1}, {"before", &hi, 0}} {
		cur, ok := args[c.arg].(string)
		if !ok {
			continue
		}
		i := slices.IndexFunc(items, func(n gqlNode) bool { return gqlCursor(n) == cur })
		if i < 0 {
			x.violations = append(x.violations, fmt.Sprintf("%s cursor %q on %s is none the fake gave", c.arg, cur, name))
			return nil, &gqlError{Message: fakeWording(fmt.Sprintf("`%s` does not appear to be a valid cursor.", cur))}
		}
		*c.at = i + c.step
	}
	if skip, ok := args["skip"].(int64); ok {
		lo = min(lo+int(max(skip, 0)), hi)
	}
	boundLo, boundHi := lo, hi
	if hasFirst {
		hi = min(hi, lo+int(first))
	}
	if hasLast {
		lo = max(lo, hi-int(last))
	}
	lo = min(lo, hi)
	page := items[lo:hi]
	info := gqlPageInfo{hasNext: hasFirst && hi < boundHi, hasBefore: hasLast && lo > boundLo}
	if len(page) > 0 {
		info.start, info.end = gqlCursor(page[0]), gqlCursor(page[len(page)-1])
	}
	return &gqlConn{page: page, total: len(items), info: info}, nil
}
