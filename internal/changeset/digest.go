package changeset

import (
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"strings"
	"unsafe"
)

// PatchDigest is the identity of a whole patch: the lowercase hex SHA-256 of
// its exact bytes. Two reads of an unchanged tree give the same digest.
func PatchDigest(patch string) string {
	sum := sha256.Sum256(unsafeBytes(patch))
	return hex.EncodeToString(sum[:])
}

// HunkDigest is the content address of one hunk: the lowercase hex SHA-256
// of path, a NUL byte, then each body line followed by "\n":
//
//	sha256(path + "\x00" + lines[0] + "\n" + lines[1] + "\n" + ...)
//
// lines are Hunk.Lines, markers and CRs included. The framing is
// unambiguous because a path never contains NUL and a line never contains
// "\n". The @@ header is left out on purpose: its line numbers move whenever
// anything above the hunk changes, and a viewed mark must survive that.
func HunkDigest(path string, lines []string) string {
	h := sha256.New()
	h.Write(unsafeBytes(path))
	h.Write([]byte{0})
	for _, l := range lines {
		h.Write(unsafeBytes(l))
		h.Write([]byte{'\n'})
	}
	return sumHex(h)
}

// hunkDigestRaw is HunkDigest for a body that is the contiguous patch text
// raw: its lines each followed by "\n", except possibly the last one, which
// ended the input.
func hunkDigestRaw(h hash.Hash, path, raw string) string {
	h.Reset()
	h.Write(unsafeBytes(path))
	h.Write([]byte{0})
	h.Write(unsafeBytes(raw))
	if raw != "" && !strings.HasSuffix(raw, "\n") {
		h.Write([]byte{'\n'})
	}
	return sumHex(h)
}

func sumHex(h hash.Hash) string {
	var buf [sha256.Size]byte
	return hex.EncodeToString(h.Sum(buf[:0]))
}

// unsafeBytes views s as bytes without copying, for hashing only: hash
// writers do not retain or modify their input.
func unsafeBytes(s string) []byte {
	return unsafe.Slice(unsafe.StringData(s), len(s))
}
