package forge

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/leanreview/leanreview/internal/changeset"
)

// hunk builds a hunk from its header numbers and body lines ("+x", "-y",
// " z"), numbering rows the way the changeset parser does.
func hunk(oldStart, newStart int, body ...string) changeset.Hunk {
	h := changeset.Hunk{OldStart: oldStart, NewStart: newStart, Lines: body}
	o, n := oldStart, newStart
	for _, l := range body {
		r := changeset.Row{Text: l[1:]}
		switch l[0] {
		case '+':
			r.Kind, r.NewLine = changeset.KindAdd, ptr(n)
			n++
		case '-':
			r.Kind, r.OldLine = changeset.KindDel, ptr(o)
			o++
		default:
			r.Kind, r.OldLine, r.NewLine = changeset.KindContext, ptr(o), ptr(n)
			o++
			n++
		}
		h.Rows = append(h.Rows, r)
	}
	return h
}

func ptr(i int) *int { return &i }

// diff is main.go with two hunks, lib.go renamed from old.go, and a binary.
func diff() []changeset.File {
	return []changeset.File{
		{Path: "main.go", Status: changeset.StatusModified, Hunks: []changeset.Hunk{
			hunk(1, 1, " package main", "-import \"os\"", "+import \"fmt\"", " "),
			hunk(10, 10, " func main() {", "-\tos.Exit(1)", "+\tfmt.Println()", "+\treturn", " }"),
		}},
		{Path: "lib.go", OldPath: "old.go", Status: changeset.StatusRenamed, Hunks: []changeset.Hunk{
			hunk(3, 3, " a", "-b", "+B", " c"),
		}},
		{Path: "logo.png", Status: changeset.StatusModified, Binary: true},
	}
}

func TestLocate_MapsLinesToRowsWithBothCounters(t *testing.T) {
	tests := []struct {
		name string
		c    Comment
		want Position
	}{
		{"added row carries the old line it sits before",
			Comment{Path: "main.go", Side: changeset.SideNew, Line: 11},
			Position{Path: "main.go", OldPath: "main.go",
				Start: Row{Kind: changeset.KindAdd, OldLine: 12, NewLine: 11, Hunk: 1, Index: 2},
				End:   Row{Kind: changeset.KindAdd, OldLine: 12, NewLine: 11, Hunk: 1, Index: 2}}},
		{"removed row on the old side",
			Comment{Path: "main.go", Side: changeset.SideOld, Line: 2},
			Position{Path: "main.go", OldPath: "main.go",
				Start: Row{Kind: changeset.KindDel, OldLine: 2, NewLine: 2, Hunk: 0, Index: 1},
				End:   Row{Kind: changeset.KindDel, OldLine: 2, NewLine: 2, Hunk: 0, Index: 1}}},
		{"context row on the old side",
			Comment{Path: "main.go", Side: changeset.SideOld, Line: 10},
			Position{Path: "main.go", OldPath: "main.go",
				Start: Row{Kind: changeset.KindContext, OldLine: 10, NewLine: 10, Hunk: 1},
				End:   Row{Kind: changeset.KindContext, OldLine: 10, NewLine: 10, Hunk: 1}}},
		{"range across sides within a hunk",
			Comment{Path: "main.go", StartSide: changeset.SideOld, StartLine: 11, Side: changeset.SideNew, Line: 12},
			Position{Path: "main.go", OldPath: "main.go",
				Start: Row{Kind: changeset.KindDel, OldLine: 11, NewLine: 11, Hunk: 1, Index: 1},
				End:   Row{Kind: changeset.KindAdd, OldLine: 12, NewLine: 12, Hunk: 1, Index: 3}}},
		{"renamed file keeps its old path",
			Comment{Path: "lib.go", OldPath: "old.go", Side: changeset.SideNew, Line: 4},
			Position{Path: "lib.go", OldPath: "old.go",
				Start: Row{Kind: changeset.KindAdd, OldLine: 5, NewLine: 4, Index: 2},
				End:   Row{Kind: changeset.KindAdd, OldLine: 5, NewLine: 4, Index: 2}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Locate(diff(), tt.c)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestCheck_RejectsWhatIsNotPartOfTheDiffPerComment(t *testing.T) {
	comments := []Comment{
		{MarkerID: "ok", Path: "main.go", Side: changeset.SideNew, Line: 2},
		{MarkerID: "outside", Path: "main.go", Side: changeset.SideNew, Line: 5},
		{MarkerID: "wrong-side", Path: "main.go", Side: changeset.SideNew, Line: 0},
		{MarkerID: "old-side-outside", Path: "main.go", Side: changeset.SideOld, Line: 5},
		{MarkerID: "cross-hunk", Path: "main.go", Side: changeset.SideNew, StartLine: 1, Line: 11},
		{MarkerID: "backwards", Path: "main.go", Side: changeset.SideNew, StartLine: 12, Line: 11},
		{MarkerID: "binary", Path: "logo.png", Side: changeset.SideNew, Line: 1},
		{MarkerID: "no-file", Path: "absent.go", Side: changeset.SideNew, Line: 1},
		{MarkerID: "bad-old-path", Path: "lib.go", OldPath: "other.go", Side: changeset.SideNew, Line: 4},
		{MarkerID: "bad marker", Path: "main.go", Side: changeset.SideNew, Line: 2},
	}
	ok, rejected := Check(diff(), comments)
	if len(ok) != 1 || ok[0].MarkerID != "ok" {
		t.Errorf("sendable = %+v, want only \"ok\"", ok)
	}
	var ids []string
	for _, r := range rejected {
		ids = append(ids, r.MarkerID)
		if r.Reason == "" {
			t.Errorf("rejection of %s gives no reason", r.MarkerID)
		}
	}
	want := []string{"outside", "wrong-side", "old-side-outside", "cross-hunk", "backwards", "binary", "no-file", "bad-old-path", "bad marker"}
	if d := cmp.Diff(want, ids); d != "" {
		t.Errorf("rejected (-want +got):\n%s", d)
	}
	if !strings.Contains(rejected[0].Reason, "line 5 (new side) of main.go is not part of the diff") {
		t.Errorf("reason = %q", rejected[0].Reason)
	}
}

func TestLocateError_IsRejected(t *testing.T) {
	_, err := Locate(diff(), Comment{Path: "main.go", Side: changeset.SideNew, Line: 99})
	if !errors.Is(err, ErrRejected) {
		t.Errorf("err = %v, want ErrRejected", err)
	}
}

func TestMarker_RoundTripsAndIsReplacedNotDoubled(t *testing.T) {
	body := WithMarker("Looks off.\n", "d-1")
	if body != "Looks off.\n\n<!-- leanreview:d-1 -->" {
		t.Errorf("WithMarker = %q", body)
	}
	if got := MarkerOf(body); got != "d-1" {
		t.Errorf("MarkerOf = %q", got)
	}
	again := WithMarker(body, "d-2")
	if strings.Count(again, "leanreview:") != 1 || MarkerOf(again) != "d-2" {
		t.Errorf("re-marking gave %q", again)
	}
	if got := StripMarker(body); got != "Looks off." {
		t.Errorf("StripMarker = %q", got)
	}
	if got := WithMarker("", "x"); got != Marker("x") {
		t.Errorf("empty body = %q", got)
	}
	if got := MarkerOf("quoting <!-- leanreview:x --> mid-text is not identity"); got != "" {
		t.Errorf("mid-text marker read as %q", got)
	}
}

func TestRetryPolicy_BackoffDoublesUpToMax(t *testing.T) {
	p := RetryPolicy{Attempts: 6, Base: time.Second, Max: 5 * time.Second}
	var got []time.Duration
	for a := 1; a <= 5; a++ {
		got = append(got, p.Backoff(a))
	}
	want := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 5 * time.Second, 5 * time.Second}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if (RetryPolicy{}).OrDefault() != DefaultRetry() {
		t.Error("zero policy does not default")
	}
}

func TestHostError_ExplainsInWordsAndMatchesItsClass(t *testing.T) {
	e := &HostError{Kind: KindGitHub, Op: "get pull request acme/tool#1", Status: 401, Reason: "Bad credentials", Class: ErrUnauthorized}
	want := "GitHub rejected the token (401) on get pull request acme/tool#1: Bad credentials: set GITHUB_TOKEN or GH_TOKEN to a token with repo scope (or log in with gh)"
	if e.Error() != want {
		t.Errorf("Error() = %q\nwant      %q", e.Error(), want)
	}
	if !errors.Is(e, ErrUnauthorized) || errors.Is(e, ErrNotFound) {
		t.Error("class does not match under errors.Is")
	}
	var he *HostError
	if !errors.As(error(e), &he) {
		t.Error("errors.As fails")
	}
	gl := &HostError{Kind: KindGitLab, Op: "approve g/p!1", Status: 401, Class: ErrUnauthorized}
	if !strings.Contains(gl.Error(), "GITLAB_TOKEN") {
		t.Errorf("GitLab hint missing: %q", gl.Error())
	}
	if !errors.Is(&HeadMovedError{}, ErrHeadMoved) {
		t.Error("HeadMovedError is not ErrHeadMoved")
	}
}

func TestReview_ValidateRefusesMalformedSubmissions(t *testing.T) {
	good := Review{MarkerID: "r1", CommitID: "abc", Event: EventComment}
	if err := good.Validate(); err != nil {
		t.Fatalf("good review: %v", err)
	}
	tests := map[string]func(r *Review){
		"no marker":             func(r *Review) { r.MarkerID = "" },
		"no event":              func(r *Review) { r.Event = 0 },
		"no commit":             func(r *Review) { r.CommitID = "" },
		"comments without diff": func(r *Review) { r.Comments = []Comment{{MarkerID: "c"}} },
		"duplicate marker":      func(r *Review) { r.Diff = diff(); r.Comments = []Comment{{MarkerID: "c"}, {MarkerID: "c"}} },
		"reply without thread":  func(r *Review) { r.Replies = []Reply{{MarkerID: "p"}} },
	}
	for name, mutate := range tests {
		t.Run(name, func(t *testing.T) {
			r := good
			mutate(&r)
			if err := r.Validate(); !errors.Is(err, ErrInput) {
				t.Errorf("Validate() = %v, want ErrInput", err)
			}
		})
	}
}
