package changeset

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
)

func TestPatchDigest_IsSHA256OfTheExactBytes(t *testing.T) {
	sum := sha256.Sum256([]byte("a\r\nb"))
	if got, want := PatchDigest("a\r\nb"), hex.EncodeToString(sum[:]); got != want {
		t.Errorf("PatchDigest = %s, want %s", got, want)
	}
}

func TestHunkDigest_FramesPathAndLines(t *testing.T) {
	sum := sha256.Sum256([]byte("dir/f.go\x00 ctx\n-old\n+new\n"))
	if got, want := HunkDigest("dir/f.go", []string{" ctx", "-old", "+new"}), hex.EncodeToString(sum[:]); got != want {
		t.Errorf("HunkDigest = %s, want %s", got, want)
	}
	base := HunkDigest("f", []string{"-a", "+b"})
	for name, other := range map[string]string{
		"another path":       HunkDigest("g", []string{"-a", "+b"}),
		"lines split apart":  HunkDigest("f", []string{"-a+b"}),
		"path glued to line": HunkDigest("f-a", []string{"+b"}),
		"a CR":               HunkDigest("f", []string{"-a\r", "+b"}),
	} {
		if other == base {
			t.Errorf("%s digests like the original", name)
		}
	}
}

func TestHunkDigest_IgnoresTheHeaderButNotThePath(t *testing.T) {
	patch := "diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@ func a()\n x\n-y\n+z\n"
	moved := strings.Replace(patch, "@@ -1,2 +1,2 @@ func a()", "@@ -40,2 +41,2 @@ func b()", 1)
	renamed := strings.ReplaceAll(patch, "/f", "/g")
	d := func(p string) string {
		c, err := ParseBytes([]byte(p))
		if err != nil {
			t.Fatal(err)
		}
		return c.Files[0].Hunks[0].Digest
	}
	if d(patch) != d(moved) {
		t.Errorf("a hunk that only moved changed its digest")
	}
	if d(patch) == d(renamed) {
		t.Errorf("the same change in another file has the same digest")
	}
}

func TestHunkDigest_FastPathAgreesAtEndOfInputWithoutNewline(t *testing.T) {
	c, err := ParseBytes([]byte("--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b"))
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, c)
}
