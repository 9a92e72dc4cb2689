package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

func TestInspect_JSONUsesTheWireNamesOfTheSpec(t *testing.T) {
	s := newSandbox(t)
	out := s.ok("inspect", "--json", testdataPath(t, "../../../testdata/sample.patch"))
	var doc map[string]any
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if got := keys(doc); strings.Join(got, ",") != "digest,files,source" {
		t.Errorf("top-level keys %v", got)
	}
	src := doc["source"].(map[string]any)
	if src["kind"] != "file" || !strings.HasPrefix(src["key"].(string), "patch-") {
		t.Errorf("source %v", src)
	}
	files := doc["files"].([]any)
	var handler map[string]any
	for _, f := range files {
		if f.(map[string]any)["path"] == "server/handler.go" {
			handler = f.(map[string]any)
		}
	}
	wantFile := "additions,binary,deletions,hunks,old_path,path,status"
	if got := strings.Join(keys(handler), ","); got != wantFile {
		t.Errorf("file keys %s, want %s", got, wantFile)
	}
	hunk := handler["hunks"].([]any)[0].(map[string]any)
	for _, k := range []string{"index", "header", "lines", "digest", "old_start", "old_count", "new_start", "new_count", "rows"} {
		if _, ok := hunk[k]; !ok {
			t.Errorf("hunk lacks %q: %v", k, keys(hunk))
		}
	}
	row := hunk["rows"].([]any)[0].(map[string]any)
	for _, k := range []string{"kind", "text", "old_line", "new_line"} {
		if _, ok := row[k]; !ok {
			t.Errorf("row lacks %q: %v", k, keys(row))
		}
	}
	// The bidi line is escaped in display, raw in lines.
	last := handler["hunks"].([]any)[len(handler["hunks"].([]any))-1].(map[string]any)
	display, _ := last["display"].([]any)
	joined := ""
	for _, d := range display {
		joined += d.(string) + "\n"
	}
	if !strings.Contains(joined, "<U+202E>") {
		t.Errorf("display of the bidi hunk lacks <U+202E>: %q", joined)
	}
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func TestInspect_NumstatIsGitApplys(t *testing.T) {
	s := newSandbox(t)
	out := s.ok("inspect", "--numstat", testdataPath(t, "../../../testdata/sample.patch"))
	want := "2\t0\tdocs/README.md\n-\t-\tdocs/logo.png\n0\t0\tscripts/deploy.sh\n3\t1\tserver/accounts.go\n17\t4\tserver/handler.go\n"
	if out != want {
		t.Errorf("numstat:\n%s\nwant:\n%s", out, want)
	}
}

func TestInspect_BadInputIsOneClearLineAndExitStatus2(t *testing.T) {
	s := newSandbox(t)
	malformed := filepath.Join(s.dir, "bad.diff")
	if err := os.WriteFile(malformed, []byte("diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@ nonsense\n-a\nthis line is not part of any hunk\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	notRepo := t.TempDir()
	for _, tc := range []struct {
		name string
		args []string
		dir  string
		want string
	}{
		{"malformed patch names the line", []string{"inspect", malformed}, "", "line 6"},
		{"missing file", []string{"inspect", filepath.Join(s.dir, "nope.diff")}, "", "nope.diff"},
		{"not a repository", []string{"inspect", "."}, notRepo, "is not in a git work tree"},
		{"normal diff names its dialect", []string{"inspect", "-"}, "", "normal diff"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdin := ""
			if tc.args[len(tc.args)-1] == "-" {
				stdin = "1c1\n< a\n---\n> b\n"
			}
			if tc.dir != "" {
				old := s.dir
				s.dir = tc.dir
				defer func() { s.dir = old }()
			}
			out, errOut, code := s.run(stdin, tc.args...)
			if code != 2 || out != "" || strings.Count(strings.TrimSpace(errOut), "\n") != 0 || !strings.Contains(errOut, tc.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and one line mentioning %q", code, out, errOut, tc.want)
			}
		})
	}
}
