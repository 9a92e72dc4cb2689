package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/app/apptest"
	"github.com/leanreview/leanreview/internal/httpapi"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

type fixedOpener struct{ src app.OpenedSource }

func (o fixedOpener) OpenSource(context.Context, app.OpenRequest) (app.OpenedSource, error) {
	return o.src, nil
}

// TestServer_ResponsesMatchTheGoldenFiles drives the API through a review
// of calc-v1.diff and compares every response body with testdata/golden,
// which docs/api.md points to as the wire format's examples. Run with
// -update after an intended change.
func TestServer_ResponsesMatchTheGoldenFiles(t *testing.T) {
	src := apptest.NewSource(apptest.V1)
	reg := app.NewRegistry(app.RegistryDeps{
		Deps:   app.Deps{Documents: memDocs{}, Now: apptest.Clock(), NewID: apptest.IDs("id")},
		Opener: fixedOpener{app.OpenedSource{Info: app.SourceInfo{Kind: "file", Key: "patch-0123456789abcdef0123456789abcdef", Label: "calc-v1.diff"}, Source: src}},
	})
	defer reg.Close()
	srv := httptest.NewServer(httpapi.NewServer(reg))
	defer srv.Close()
	s := "/api/v1/sessions/patch-0123456789abcdef0123456789abcdef"

	steps := []struct {
		golden, method, path, body string
		status                     int
		before                     func()
	}{
		{"session-open", "POST", "/api/v1/sessions", `{"args":["calc-v1.diff"],"dir":"/home/ann/src/calc"}`, 200, nil},
		{"changeset", "GET", s + "/changeset", "", 200, nil},
		{"comment-add", "POST", s + "/comments", `{"path":"calc.go","side":"new","start_line":20,"body":"Why + 1?"}`, 201, nil},
		{"suggestion-add", "POST", s + "/suggestions", `{"path":"calc.go","side":"new","line":80,"hunk":1,"reason":"the sign flipped"}`, 201, nil},
		{"viewed-mark", "POST", s + "/viewed", `{"digest":"` + digestOf(t, reg, 1, 0) + `","viewed":true}`, 200, nil},
		{"cursor-set", "PUT", s + "/cursor", `{"path":"dup.txt","side":"new","line":7,"hunk":0}`, 204, nil},
		{"state", "GET", s + "/state", "", 200, nil},
		{"error-not-in-change", "POST", s + "/comments", `{"path":"calc.go","side":"new","start_line":50,"body":"x"}`, 422, nil},
		{"error-author", "POST", s + "/comments", `{"path":"calc.go","side":"new","start_line":20,"body":"x","author":"human"}`, 400, nil},
		{"error-no-session", "GET", "/api/v1/sessions/nope/state", "", 404, nil},
		{"reload", "POST", s + "/reload", `{}`, 200, func() { src.Set(apptest.V2) }},
		{"error-stale", "PUT", s + "/cursor", `{"as_of":"` + digestV1(t) + `","path":"calc.go","hunk":-1}`, 409, nil},
	}
	for _, st := range steps {
		if st.before != nil {
			st.before()
		}
		req, _ := http.NewRequest(st.method, srv.URL+st.path, strings.NewReader(st.body))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != st.status {
			t.Errorf("%s: %s %s", st.golden, resp.Status, body)
			continue
		}
		if len(body) == 0 {
			continue
		}
		var pretty bytes.Buffer
		if err := json.Indent(&pretty, body, "", "  "); err != nil {
			t.Fatalf("%s: not JSON: %q", st.golden, body)
		}
		compareGolden(t, st.golden+".json", pretty.Bytes())
	}
}

func compareGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s (-golden +got):\n%s", name, diff)
	}
}

func digestOf(t *testing.T, reg *app.Registry, file, hunk int) string {
	t.Helper()
	_, svc, err := reg.Open(context.Background(), app.OpenRequest{})
	if err != nil {
		t.Fatal(err)
	}
	snap, _ := svc.Snapshot(context.Background())
	return snap.Changeset.Files[file].Hunks[hunk].Digest
}

func digestV1(t *testing.T) string {
	t.Helper()
	l, err := app.NewLocal(context.Background(), app.LocalDeps{Deps: app.Deps{Documents: memDocs{}}, Source: apptest.NewSource(apptest.V1)})
	if err != nil {
		t.Fatal(err)
	}
	snap, _ := l.Snapshot(context.Background())
	return snap.AsOf
}

// memDocs is an app.Documents that holds nothing: the golden run needs no
// persistence, and a missing document reads as absent.
type memDocs struct{}

func (memDocs) Read(context.Context, string, any) error { return os.ErrNotExist }
func (memDocs) Update(_ context.Context, _ string, _ any, mutate func(bool) error) error {
	return mutate(false)
}
func (memDocs) Remove(context.Context, string) error { return nil }
