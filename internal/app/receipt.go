package app

import (
	"crypto/sha256"
	"encoding/hex"
	"time"

	"github.com/leanreview/leanreview/internal/changeset"
)

// Receipt attests that the human finished reading a file: every hunk of it
// marked viewed, the last mark made live in this session. Fingerprint is
// FileFingerprint of the file as the reader was shown it, so a receipt
// stops matching the moment the file's change does.
//
// Receipts are minted only by MarkViewed completing a file, never from a
// viewed set loaded from disk: that file is unauthenticated, and a file
// that merely looks complete after a reload was not read in this session.
// They live in memory for the session's life.
type Receipt struct {
	Path        string    `json:"path"`
	Fingerprint string    `json:"fingerprint"`
	At          time.Time `json:"at"`
}

// FileFingerprint identifies the change to f as a reader is shown it: its
// path and the content digests of its hunks, in order. It is the
// changeset's view of the file (what the review showed), not the bytes on
// disk, which for a patch file or a commit range are not the reviewed ones.
func FileFingerprint(f *changeset.File) string {
	h := sha256.New()
	h.Write([]byte(f.Path))
	for _, hk := range f.Hunks {
		h.Write([]byte{0})
		h.Write([]byte(hk.Digest))
	}
	return hex.EncodeToString(h.Sum(nil))
}

func mintReceipt(f *changeset.File, now time.Time) Receipt {
	return Receipt{Path: f.Path, Fingerprint: FileFingerprint(f), At: now}
}
