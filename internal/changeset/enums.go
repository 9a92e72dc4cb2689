package changeset

import "fmt"

// Kind is what one row of a hunk is. Context appears on both sides; Add and
// Del on one. KindMeta is the "\ No newline at end of file" marker, which
// belongs to the hunk but is a line of neither file. The zero Kind is invalid.
type Kind uint8

const (
	KindContext Kind = iota + 1
	KindAdd
	KindDel
	KindMeta
)

var kindNames = [...]string{KindContext: "context", KindAdd: "add", KindDel: "del", KindMeta: "meta"}

func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// MarshalText writes the wire name ("context", "add", "del", "meta").
func (k Kind) MarshalText() ([]byte, error) {
	if int(k) >= len(kindNames) || kindNames[k] == "" {
		return nil, fmt.Errorf("invalid row kind %d", uint8(k))
	}
	return []byte(kindNames[k]), nil
}

// UnmarshalText reads a wire name.
func (k *Kind) UnmarshalText(b []byte) error {
	for i, n := range kindNames {
		if n != "" && n == string(b) {
			*k = Kind(i)
			return nil
		}
	}
	return fmt.Errorf("unknown row kind %q", b)
}

// Status is what happened to a file as a whole: from git's extended headers
// where present, otherwise inferred from /dev/null in the ---/+++ pair. The
// zero Status is invalid.
type Status uint8

const (
	StatusAdded Status = iota + 1
	StatusDeleted
	StatusModified
	StatusRenamed
	StatusCopied
)

var statusNames = [...]string{StatusAdded: "added", StatusDeleted: "deleted", StatusModified: "modified", StatusRenamed: "renamed", StatusCopied: "copied"}

func (s Status) String() string {
	if int(s) < len(statusNames) && statusNames[s] != "" {
		return statusNames[s]
	}
	return fmt.Sprintf("Status(%d)", uint8(s))
}

// MarshalText writes the wire name ("added", "deleted", ...).
func (s Status) MarshalText() ([]byte, error) {
	if int(s) >= len(statusNames) || statusNames[s] == "" {
		return nil, fmt.Errorf("invalid file status %d", uint8(s))
	}
	return []byte(statusNames[s]), nil
}

// UnmarshalText reads a wire name.
func (s *Status) UnmarshalText(b []byte) error {
	for i, n := range statusNames {
		if n != "" && n == string(b) {
			*s = Status(i)
			return nil
		}
	}
	return fmt.Errorf("unknown file status %q", b)
}

// Side is which file of a change a line number counts in. The zero Side is
// invalid.
type Side uint8

const (
	SideOld Side = iota + 1
	SideNew
)

func (s Side) String() string {
	switch s {
	case SideOld:
		return "old"
	case SideNew:
		return "new"
	}
	return fmt.Sprintf("Side(%d)", uint8(s))
}

// MarshalText writes "old" or "new".
func (s Side) MarshalText() ([]byte, error) {
	if s != SideOld && s != SideNew {
		return nil, fmt.Errorf("invalid side %d", uint8(s))
	}
	return []byte(s.String()), nil
}

// UnmarshalText reads "old"/"new" (and GitHub's "LEFT"/"RIGHT").
func (s *Side) UnmarshalText(b []byte) error {
	v, err := ParseSide(string(b))
	if err == nil {
		*s = v
	}
	return err
}

// ParseSide reads "old"/"new" and GitHub's "LEFT"/"RIGHT".
func ParseSide(v string) (Side, error) {
	switch v {
	case "old", "LEFT", "left":
		return SideOld, nil
	case "new", "RIGHT", "right":
		return SideNew, nil
	}
	return 0, fmt.Errorf("unknown side %q (want old or new)", v)
}
