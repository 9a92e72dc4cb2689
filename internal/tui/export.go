package tui

import (
	"bytes"
	"fmt"
	"os"

	tea "charm.land/bubbletea/v2"
	"github.com/leanreview/leanreview/internal/app"
)

// exportDrafts writes every draft of the review, orphans included, to a new
// Markdown file (mode 0600) in dir, or the system's temporary directory when
// dir is "". It is the way out when the state directory refuses writes: the
// drafts live only in memory then, and the status line says so.
func (m *Model) exportDrafts(dir string) tea.Cmd {
	drafts := app.Export(m.snap.Drafts)
	label := m.snap.Source.Label
	return func() tea.Msg {
		var buf bytes.Buffer
		if err := app.WriteMarkdown(&buf, label, drafts); err != nil {
			return opDoneMsg{err: fmt.Errorf("export drafts: %w", err)}
		}
		f, err := os.CreateTemp(dir, "leanreview-drafts-*.md")
		if err != nil {
			return opDoneMsg{err: fmt.Errorf("export drafts: %w", err)}
		}
		_, werr := f.Write(buf.Bytes())
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			os.Remove(f.Name())
			return opDoneMsg{err: fmt.Errorf("export drafts to %s: %w", f.Name(), werr)}
		}
		return opDoneMsg{info: fmt.Sprintf("exported %d drafts to %s", len(drafts), f.Name())}
	}
}
