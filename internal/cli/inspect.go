package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/spf13/cobra"
)

// InspectOptions are the inputs of `leanreview inspect`.
type InspectOptions struct {
	Args    []string
	Source  sourceFlags
	JSON    bool
	Numstat bool
}

func newCmdInspect(f *Factory, runF func(context.Context, *InspectOptions) error) *cobra.Command {
	opts := &InspectOptions{}
	cmd := &cobra.Command{
		Use:   "inspect [SOURCE]",
		Short: "Print the parsed change: files and counts, or the whole model as JSON",
		Long: `Print what leanreview reads from a source.

SOURCE is a patch file, - for standard input, . for the working tree against
HEAD (the default), A B / A..B / A...B, or a single commit; --staged and
--base REF select the index or the commits since the branch left REF.`,
		Example: "  leanreview inspect fix.patch\n  git diff | leanreview inspect --json -\n  leanreview inspect --numstat main...HEAD",
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Args = args
			if opts.JSON && opts.Numstat {
				return usageError{fmt.Errorf("--json and --numstat cannot be combined")}
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return inspectRun(cmd.Context(), f, opts)
		},
	}
	opts.Source.register(cmd)
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the whole parsed model as JSON")
	cmd.Flags().BoolVar(&opts.Numstat, "numstat", false, "print added<TAB>deleted<TAB>path per file, like git apply --numstat")
	return cmd
}

// inspectJSON is the --json document: the changeset with its source.
type inspectJSON struct {
	Digest string           `json:"digest"`
	Source app.SourceInfo   `json:"source"`
	Files  []changeset.File `json:"files"`
}

func inspectRun(ctx context.Context, f *Factory, opts *InspectOptions) error {
	// The parsed model of a large patch is long-lived, so frequent
	// collections find little garbage and cost a good share of the parse.
	debug.SetGCPercent(400)
	src, cs, err := f.ReadChangeset(ctx, opts.Args, opts.Source)
	if err != nil {
		return err
	}
	out := f.IOStreams.Out
	switch {
	case opts.JSON:
		info := sourceInfo(src)
		info.Label = ""
		enc := json.NewEncoder(out)
		return enc.Encode(inspectJSON{Digest: cs.Digest, Source: info, Files: cs.Files})
	case opts.Numstat:
		return writeNumstat(out, cs)
	default:
		return writeSummary(out, src.Label, cs)
	}
}

// writeNumstat prints one line per file as `git apply --numstat` does,
// "-" counts for binary files.
func writeNumstat(w io.Writer, cs *changeset.Changeset) error {
	var b strings.Builder
	for _, file := range cs.Files {
		if file.Binary {
			b.WriteString("-\t-\t")
		} else {
			b.WriteString(strconv.Itoa(file.Additions))
			b.WriteByte('\t')
			b.WriteString(strconv.Itoa(file.Deletions))
			b.WriteByte('\t')
		}
		b.WriteString(file.Path)
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeSummary prints a person-readable overview: one line per file with
// its status, counts and hunks.
func writeSummary(w io.Writer, label string, cs *changeset.Changeset) error {
	var b strings.Builder
	adds, dels, hunks := 0, 0, 0
	for _, file := range cs.Files {
		adds += file.Additions
		dels += file.Deletions
		hunks += len(file.Hunks)
	}
	fmt.Fprintf(&b, "%s: %d files, %d hunks, +%d -%d\n", label, len(cs.Files), hunks, adds, dels)
	for _, file := range cs.Files {
		name := quotePath(file.Path)
		if file.OldPath != "" && file.OldPath != file.Path {
			name = quotePath(file.OldPath) + " -> " + name
		}
		counts := fmt.Sprintf("+%d -%d", file.Additions, file.Deletions)
		if file.Binary {
			counts = "binary"
		}
		mode := ""
		if file.OldMode != "" && file.NewMode != "" && file.OldMode != file.NewMode {
			mode = fmt.Sprintf(" mode %s -> %s", file.OldMode, file.NewMode)
		}
		fmt.Fprintf(&b, "  %-8s %-14s %s%s\n", file.Status, counts, name, mode)
		for _, h := range file.Hunks {
			for _, warn := range h.Warnings {
				fmt.Fprintf(&b, "           warning: hunk %d: %s\n", h.Index+1, warn)
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// quotePath shows a path safely on a terminal: control, bidi and invisible
// characters escaped as in the diff view.
func quotePath(p string) string {
	s, _ := changeset.SanitizeBidi(p)
	return s
}
