package source_test

import (
	"encoding/json"
	"testing"

	"github.com/leanreview/leanreview/internal/source"
)

func TestKind_WireNamesRoundTrip(t *testing.T) {
	for kind, name := range map[source.Kind]string{
		source.KindFile:     "file",
		source.KindStdin:    "stdin",
		source.KindWorktree: "worktree",
		source.KindStaged:   "staged",
		source.KindBase:     "base",
		source.KindRange:    "range",
		source.KindCommit:   "commit",
	} {
		t.Run(name, func(t *testing.T) {
			if kind.String() != name {
				t.Errorf("String() = %q, want %q", kind.String(), name)
			}
			data, err := json.Marshal(struct {
				Kind source.Kind `json:"kind"`
			}{kind})
			if err != nil || string(data) != `{"kind":"`+name+`"}` {
				t.Fatalf("json = %s, %v", data, err)
			}
			var back struct {
				Kind source.Kind `json:"kind"`
			}
			if err := json.Unmarshal(data, &back); err != nil || back.Kind != kind {
				t.Errorf("decoded %v, %v; want %v", back.Kind, err, kind)
			}
		})
	}
}

func TestKind_InvalidIsRejected(t *testing.T) {
	var zero source.Kind
	if zero.String() != "Kind(0)" {
		t.Errorf("zero String() = %q", zero.String())
	}
	if _, err := json.Marshal(zero); err == nil {
		t.Error("marshalling the zero kind succeeded")
	}
	var k source.Kind
	if err := json.Unmarshal([]byte(`"gerrit"`), &k); err == nil {
		t.Errorf("unmarshalling an unknown name succeeded: %v", k)
	}
	if _, err := source.ParseKind("Kind(0)"); err == nil {
		t.Error(`ParseKind("Kind(0)") succeeded`)
	}
}
