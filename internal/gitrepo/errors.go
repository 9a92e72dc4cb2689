package gitrepo

import "fmt"

// NotRepositoryError reports that a directory is in no git work tree: it is
// outside any repository, or inside a .git directory or a bare repository.
type NotRepositoryError struct {
	// Dir is the directory as given to Open; "" means the process's.
	Dir string
	// Detail is git's explanation, the first line of its stderr.
	Detail string
}

func (e *NotRepositoryError) Error() string {
	dir := e.Dir
	if dir == "" {
		dir = "."
	}
	return fmt.Sprintf("%s is not in a git work tree (%s)", dir, e.Detail)
}

// UnknownRevisionError reports a revision that names no commit.
type UnknownRevisionError struct {
	// Rev is the revision as it was asked for.
	Rev string
}

func (e *UnknownRevisionError) Error() string {
	return fmt.Sprintf("unknown revision %q", e.Rev)
}

// NoMergeBaseError reports two commits with no common ancestor.
type NoMergeBaseError struct {
	// A and B are the commits' full object names.
	A, B string
}

func (e *NoMergeBaseError) Error() string {
	return fmt.Sprintf("commits %s and %s have no common ancestor", e.A, e.B)
}
