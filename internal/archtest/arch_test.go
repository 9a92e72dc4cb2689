// Package archtest enforces the dependency rule of docs/architecture.md by
// listing every package's imports with `go list` and failing on a forbidden
// edge, in the spirit of the Go tree's go/build/deps_test.go.
package archtest

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/leanreview/leanreview"

type pkg struct {
	ImportPath string
	Imports    []string
}

func listPackages(t *testing.T) []pkg {
	t.Helper()
	out, err := exec.Command("go", "list", "-json=ImportPath,Imports", module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []pkg
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p pkg
		if err := dec.Decode(&p); err != nil {
			t.Fatalf("decode go list output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// short strips the module prefix: "internal/changeset".
func short(path string) string { return strings.TrimPrefix(strings.TrimPrefix(path, module), "/") }

// layer reports the top-level package a path belongs to ("internal/forge"
// for "internal/forge/github"), so rules name layers, not every subpackage.
func layer(path string) string {
	parts := strings.Split(short(path), "/")
	if len(parts) >= 2 && parts[0] == "internal" {
		return parts[0] + "/" + parts[1]
	}
	return short(path)
}

// rule says what a layer may import of ours, and which standard or external
// packages it must not touch. A nil ours means "anything of ours".
type rule struct {
	ours      []string
	forbidden []string
}

var pureForbidden = []string{"net/http", "os/exec", "charm.land/", "github.com/charmbracelet/"}

// rules are looked up by exact package first, then by layer (see layer).
var rules = map[string]rule{
	"internal/changeset": {ours: []string{}, forbidden: pureForbidden},
	"internal/session":   {ours: []string{"internal/changeset"}, forbidden: pureForbidden},
	// The port itself is pure; its adapters (forge/github, forge/gitlab,
	// forge/forgehttp) speak HTTP but import nothing of ours above forge.
	"internal/forge/port": {ours: []string{"internal/changeset"}, forbidden: pureForbidden},
	"internal/forge":      {ours: []string{"internal/changeset", "internal/forge"}},
	"internal/app":        {ours: []string{"internal/changeset", "internal/session", "internal/forge", "internal/app"}, forbidden: []string{"charm.land/"}},
	"internal/store":      {ours: []string{"internal/store"}},
	"internal/gitrepo":    {ours: []string{"internal/gitrepo"}},
	"internal/source":     {ours: []string{"internal/source", "internal/gitrepo", "internal/forge"}},
	"internal/editor":     {ours: []string{"internal/editor", "internal/changeset", "internal/config", "internal/iostreams"}},
	"internal/iostreams":  {ours: []string{}},
	"internal/config":     {ours: []string{"internal/config"}},
	"internal/httpapi":    {ours: []string{"internal/httpapi", "internal/app", "internal/changeset", "internal/session"}, forbidden: []string{"charm.land/"}},
	"internal/daemon":     {ours: []string{"internal/daemon", "internal/app", "internal/httpapi", "internal/source", "internal/gitrepo"}},
	"internal/mcp":        {ours: []string{"internal/mcp", "internal/app", "internal/changeset", "internal/session"}},
	"internal/web":        {ours: []string{"internal/web"}},
	"internal/tui":        {ours: []string{"internal/tui", "internal/app", "internal/changeset", "internal/session", "internal/forge", "internal/config", "internal/editor", "internal/iostreams"}},
}

// ruleFor returns the rule of a package: its own, or its layer's.
func ruleFor(path string) (rule, bool) {
	s := short(path)
	if s == "internal/forge" {
		s = "internal/forge/port"
	}
	if r, ok := rules[s]; ok {
		return r, true
	}
	r, ok := rules[layer(path)]
	return r, ok
}

// surfaces may be imported only by cli and daemon.
var surfaces = map[string]bool{"internal/tui": true, "internal/web": true, "internal/mcp": true}

func TestDependencyRule(t *testing.T) {
	for _, p := range listPackages(t) {
		from := layer(p.ImportPath)
		r, ruled := ruleFor(p.ImportPath)
		if strings.HasSuffix(p.ImportPath, "test") {
			// Test-support packages (apptest, forgetest, tuitest...) wire
			// real implementations together, as tests do.
			ruled = false
		}
		for _, imp := range p.Imports {
			if !strings.HasPrefix(imp, module+"/") {
				for _, bad := range r.forbidden {
					if imp == bad || (strings.HasSuffix(bad, "/") && strings.HasPrefix(imp, bad)) {
						t.Errorf("%s imports %s: %s must stay free of I/O and UI", short(p.ImportPath), imp, from)
					}
				}
				continue
			}
			to := layer(imp)
			if surfaces[to] && to != from && from != "internal/cli" && from != "internal/daemon" && from != "cmd/leanreview" {
				t.Errorf("%s imports surface %s: only cli and daemon may", short(p.ImportPath), short(imp))
			}
			if ruled && r.ours != nil && to != from && !contains(r.ours, to) && !strings.HasSuffix(to, "test") {
				t.Errorf("%s imports %s: %s may import only %v", short(p.ImportPath), short(imp), from, r.ours)
			}
		}
	}
}

// TestForgeAdaptersStayOutOfAppAndSurfaces keeps app and the surfaces free
// of forge adapters: they may use the pure port's types, and receive
// implementations from cli.
func TestForgeAdaptersStayOutOfAppAndSurfaces(t *testing.T) {
	for _, p := range listPackages(t) {
		switch layer(p.ImportPath) {
		case "internal/app", "internal/tui", "internal/mcp", "internal/web", "internal/httpapi":
		default:
			continue
		}
		for _, imp := range p.Imports {
			s := short(imp)
			if strings.HasPrefix(s, "internal/forge/") && !strings.HasSuffix(s, "test") {
				t.Errorf("%s imports adapter %s", short(p.ImportPath), s)
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
