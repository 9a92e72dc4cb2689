package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestComment_DraftIsListedExportedAndDiscarded(t *testing.T) {
	s := newSandbox(t)
	patch := testdataPath(t, "calc-v1.diff")
	out := s.ok("comment", patch, "--path", "calc.go", "--line", "20", "--body", "Why + 1?")
	if !strings.Contains(out, "calc.go:20 (new side) saved") {
		t.Errorf("comment said %q", out)
	}
	s.ok("comment", patch, "--path", "calc.go", "--line", "19", "--end-line", "21", "--side", "old", "--body", "Old F5 was fine.")

	var listed []map[string]any
	if err := json.Unmarshal([]byte(s.ok("drafts", patch, "--json")), &listed); err != nil {
		t.Fatal(err)
	}
	if len(listed) != 2 || listed[0]["status"] != "exact" || listed[1]["side"] != "old" || listed[1]["end_line"] != float64(21) {
		t.Errorf("drafts --json = %v", listed)
	}

	md := s.ok("export", patch, "--format", "markdown")
	for _, want := range []string{"## calc.go", "### line 20 (new side)", "```go\n\treturn x * 5 + 1 // v1\n```", "Why + 1?", "### lines 19-21 (old side)"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown export lacks %q:\n%s", want, md)
		}
	}
	file := filepath.Join(s.dir, "review.json")
	s.ok("export", patch, "--format", "json", "-o", file)
	b, err := os.ReadFile(file)
	if err != nil || !strings.Contains(string(b), `"quote": [`) {
		t.Errorf("json export: %v %s", err, b)
	}

	if out := s.ok("--discard", patch); !strings.Contains(out, "discarded 2 drafts") {
		t.Errorf("--discard said %q", out)
	}
	if out := s.ok("drafts", patch); !strings.Contains(out, "no drafts") {
		t.Errorf("after discard: %q", out)
	}
}

func TestComment_LineOutsideTheChangeIsRefusedWithExitStatus2(t *testing.T) {
	s := newSandbox(t)
	_, errOut, code := s.run("", "comment", testdataPath(t, "calc-v1.diff"), "--path", "calc.go", "--line", "50", "--body", "x")
	if code != 2 || !strings.Contains(errOut, "does not show line 50 on the new side") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

func TestDrafts_RelocatedAfterTheSourceChanges(t *testing.T) {
	// A git source keeps its key across new commits; simulate a force-push by
	// rewriting the patch file a comparison would produce: here the same
	// source key is reached by reading the new patch through the drafts file
	// of the old one, which is what relocate exercises end to end.
	s := newSandbox(t)
	reqs := `{"id":"a","path":"calc.go","side":"new","line":20}
{"id":"b","path":"calc.go","side":"new","line":80}
{"id":"c","path":"dup.txt","side":"new","line":8}
`
	out, errOut, code := s.run(reqs, "relocate", "--from", testdataPath(t, "calc-v1.diff"), "--to", testdataPath(t, "calc-v2.diff"))
	if code != 0 {
		t.Fatalf("relocate: exit %d: %s", code, errOut)
	}
	want := `{"id":"a","status":"moved","path":"calc.go","side":"new","line":24,"end_line":24}
{"id":"b","status":"orphaned","side":"new"}
{"id":"c","status":"moved","path":"dup2.txt","side":"new","line":8,"end_line":8}
`
	if out != want {
		t.Errorf("relocate printed\n%s\nwant\n%s", out, want)
	}
}

func TestComment_TwoProcessesAtOnceKeepAllTwoHundredDrafts(t *testing.T) {
	s := newSandbox(t)
	patch := testdataPath(t, "calc-v1.diff")
	var wg sync.WaitGroup
	errs := make(chan error, 2)
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 100 {
				_, errOut, code := s.run("", "comment", patch, "--path", "calc.go", "--line", "20", "--body", fmt.Sprintf("writer %d note %d", w, i))
				if code != 0 {
					errs <- fmt.Errorf("writer %d comment %d: exit %d: %s", w, i, code, errOut)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	var listed []map[string]any
	if err := json.Unmarshal([]byte(s.ok("drafts", patch, "--json")), &listed); err != nil {
		t.Fatal(err)
	}
	bodies := map[string]bool{}
	for _, d := range listed {
		bodies[d["body"].(string)] = true
	}
	if len(listed) != 200 || len(bodies) != 200 {
		t.Errorf("after 2 x 100 concurrent comments: %d drafts, %d distinct bodies; want 200", len(listed), len(bodies))
	}
}

func TestDrafts_CorruptFileIsSetAsideAndReported(t *testing.T) {
	s := newSandbox(t)
	patch := testdataPath(t, "calc-v1.diff")
	s.ok("comment", patch, "--path", "calc.go", "--line", "20", "--body", "first")
	matches, _ := filepath.Glob(filepath.Join(s.state, "leanreview", "drafts", "*.json"))
	if len(matches) != 1 {
		t.Fatalf("drafts files: %v", matches)
	}
	garbage := []byte(`{"schema": 1, "drafts": [ {"id": "x", "body": "half a fi`)
	if err := os.WriteFile(matches[0], garbage, 0o600); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := s.run("", "drafts", patch)
	if code != 0 || !strings.Contains(errOut, "could not be read") || !strings.Contains(errOut, ".corrupt-") || !strings.Contains(out, "no drafts") {
		t.Fatalf("exit %d\nstdout %q\nstderr %q", code, out, errOut)
	}
	aside, _ := filepath.Glob(matches[0] + ".corrupt-*")
	if len(aside) != 1 {
		t.Fatalf("set-aside files: %v", aside)
	}
	if b, _ := os.ReadFile(aside[0]); string(b) != string(garbage) {
		t.Errorf("set-aside file holds %q, want the original bytes", b)
	}
	s.ok("comment", patch, "--path", "calc.go", "--line", "20", "--body", "second")
	if out := s.ok("drafts", patch); !strings.Contains(out, "second") {
		t.Errorf("a new drafts file was not started: %q", out)
	}
}

func TestComment_UnwritableStateDirectoryRescuesTheComment(t *testing.T) {
	s := newSandbox(t)
	// A state directory that cannot be created, whoever runs the test
	// (root ignores permission bits): its parent is a regular file.
	blocker := filepath.Join(s.dir, "blocker")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	s.env = append(s.env, "XDG_STATE_HOME="+filepath.Join(blocker, "state"))
	body := "A comment that must not be lost."
	_, errOut, code := s.run("", "comment", testdataPath(t, "calc-v1.diff"), "--path", "calc.go", "--line", "20", "--body", body)
	if code != 1 || !strings.Contains(errOut, "was NOT saved") || !strings.Contains(errOut, "cannot save") {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut)
	}
	rescued, _ := filepath.Glob(filepath.Join(s.dir, "leanreview-unsaved-*.md"))
	if len(rescued) != 1 {
		t.Fatalf("rescue files: %v", rescued)
	}
	if b, _ := os.ReadFile(rescued[0]); !strings.Contains(string(b), body) {
		t.Errorf("rescue file holds %q", b)
	}
}

// fakeEditor writes a shell script acting as the user's editor: it appends
// body to the buffer (or nothing) and exits with status.
func fakeEditor(t *testing.T, dir, body string, status int) string {
	t.Helper()
	script := filepath.Join(dir, "My Editor", "ed.sh")
	if err := os.MkdirAll(filepath.Dir(script), 0o755); err != nil {
		t.Fatal(err)
	}
	content := fmt.Sprintf("#!/bin/sh\nprintf '%%s' %q >> \"$1\"\nexit %d\n", body, status)
	if err := os.WriteFile(script, []byte(content), 0o755); err != nil {
		t.Fatal(err)
	}
	return `"` + script + `"`
}

func TestComment_EditOpensTheEditorChain(t *testing.T) {
	patch := testdataPath(t, "calc-v1.diff")
	for _, tc := range []struct {
		name     string
		body     string
		status   int
		wantCode int
		wantOut  string
		drafts   int
	}{
		{"saved body becomes a draft", "Looks off by one.", 0, 0, "saved", 1},
		{"empty body discards", "", 0, 0, "", 0},
		{"editor failure changes nothing", "never saved", 3, 1, "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSandbox(t)
			s.env = append(s.env, "LEANREVIEW_EDITOR="+fakeEditor(t, s.dir, tc.body, tc.status))
			out, errOut, code := s.run("", "comment", patch, "--path", "calc.go", "--line", "20", "--edit")
			if code != tc.wantCode || !strings.Contains(out, tc.wantOut) {
				t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
			}
			var listed []map[string]any
			_ = json.Unmarshal([]byte(s.ok("drafts", patch, "--json")), &listed)
			if len(listed) != tc.drafts {
				t.Fatalf("%d drafts, want %d", len(listed), tc.drafts)
			}
			if tc.drafts == 1 && listed[0]["body"] != tc.body {
				t.Errorf("body %q, want %q (header stripped)", listed[0]["body"], tc.body)
			}
		})
	}
}
