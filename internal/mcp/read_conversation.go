package mcp

import (
	"github.com/leanreview/leanreview/internal/app"
)

// conversation is the conversation projection: every comment, placed
// against the change as it is now, and every suggestion. With a path, only
// the comments and suggestions on that file or directory; orphaned
// comments have no file left and are listed only for the whole change.
func conversation(snap *app.Snapshot, sel selection) ([]CommentView, []SuggestionView) {
	onFile := func(path string) bool { return sel.all || sel.paths[path] }
	comments := make([]CommentView, 0, len(snap.Drafts))
	for _, p := range snap.Drafts {
		if onFile(p.Location.Path) {
			comments = append(comments, commentView(p, snap.Changeset))
		}
	}
	suggestions := make([]SuggestionView, 0, len(snap.Suggestions))
	for _, s := range snap.Suggestions {
		if onFile(s.Path) {
			suggestions = append(suggestions, suggestionView(s))
		}
	}
	return comments, suggestions
}
