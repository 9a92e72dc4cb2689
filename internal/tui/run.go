package tui

import (
	"context"
	"fmt"

	tea "charm.land/bubbletea/v2"
	"github.com/leanreview/leanreview/internal/iostreams"
)

// Run shows the UI on ios's terminal until the reviewer quits. environ is
// the process environment as config.Sources holds it (the terminal type,
// NO_COLOR), read by Bubble Tea for the colour profile. When standard
// input is not a terminal (the patch came through a pipe), keys are read
// from the controlling terminal instead.
func Run(ctx context.Context, opts Options, ios *iostreams.IOStreams, environ []string) error {
	m := New(ctx, opts)
	popts := []tea.ProgramOption{
		tea.WithContext(ctx),
		tea.WithOutput(ios.Out),
		tea.WithEnvironment(environ),
		tea.WithFPS(120),
	}
	if ios.InTTY {
		popts = append(popts, tea.WithInput(ios.In))
	}
	final, err := tea.NewProgram(m, popts...).Run()
	if err != nil {
		return fmt.Errorf("terminal UI: %w", err)
	}
	if fm, ok := final.(*Model); ok && fm.loadErr != nil {
		return fm.loadErr
	}
	return nil
}
