// Command corpuscheck compares the changeset parser with the oracles of a
// patch corpus made by shared/bench/patch-corpus.sh (CACHE/manifest.tsv):
// for every patch git accepts with content, each file's path, old path,
// added and deleted counts and binary flag must equal git's; a patch git
// finds empty or refuses must either parse as GNU patch reads it (same
// number of files and hunks) or be refused with a clear error.
//
// Usage: go run ./scripts/corpuscheck [-v] CACHE
//
// It prints one line per disagreement with its reason and a final SUMMARY
// line; the exit status is 1 when a git-accepted patch disagrees.
package main

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/leanreview/leanreview/internal/changeset"
)

type gitFile struct {
	Path    string `json:"path"`
	OldPath string `json:"old_path"`
	Added   int    `json:"added"`
	Deleted int    `json:"deleted"`
	Binary  bool   `json:"binary"`
}

type oracle struct {
	Git struct {
		OK     bool      `json:"ok"`
		Reason string    `json:"reason"`
		Empty  bool      `json:"empty"`
		Files  []gitFile `json:"files"`
		Events []struct {
			Op      string `json:"op"`
			Path    string `json:"path"`
			OldPath string `json:"old_path"`
		} `json:"events"`
	} `json:"git"`
	GNU struct {
		RC       int    `json:"rc"`
		Reason   string `json:"reason"`
		Sections []struct {
			Kind  string `json:"kind"`
			Hunks int    `json:"hunks"`
		} `json:"sections"`
	} `json:"gnu_patch"`
}

func main() {
	verbose := flag.Bool("v", false, "also list the patches that agree")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: corpuscheck [-v] CACHE")
		os.Exit(2)
	}
	cache := flag.Arg(0)
	rows, err := readManifest(filepath.Join(cache, "manifest.tsv"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	counts := map[string]int{}
	var order []string
	note := func(class string) {
		if counts[class] == 0 {
			order = append(order, class)
		}
		counts[class]++
	}
	failed := false
	for _, r := range rows {
		var o oracle
		if err := json.Unmarshal([]byte(r["oracle"]), &o); err != nil {
			fmt.Fprintf(os.Stderr, "%s: bad oracle: %v\n", r["path"], err)
			os.Exit(2)
		}
		data, err := os.ReadFile(filepath.Join(cache, r["path"]))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		c, perr := changeset.ParseBytes(data)
		class, detail := judge(&o, c, perr)
		note(class)
		if strings.HasPrefix(class, "git-ok/DISAGREE") {
			failed = true
		}
		if *verbose || strings.Contains(class, "DISAGREE") || strings.Contains(class, "UNCLEAR") || strings.Contains(class, "repaired") {
			fmt.Printf("%-34s %s: %s\n", class, r["path"], detail)
		}
	}
	sort.SliceStable(order, func(i, j int) bool { return order[i] < order[j] })
	var parts []string
	for _, k := range order {
		parts = append(parts, fmt.Sprintf("%s=%d", k, counts[k]))
	}
	fmt.Printf("SUMMARY patches=%d %s\n", len(rows), strings.Join(parts, " "))
	if failed {
		os.Exit(1)
	}
}

// judge classifies one patch's result against its oracle.
func judge(o *oracle, c *changeset.Changeset, err error) (class, detail string) {
	switch {
	case o.Git.OK && !o.Git.Empty:
		if err != nil {
			return "git-ok/DISAGREE-error", err.Error()
		}
		files := o.Git.Files
		for _, e := range o.Git.Events {
			// numstat names only the new path; --summary's rename and copy
			// events carry the old one.
			for i := range files {
				if (e.Op == "rename" || e.Op == "copy") && files[i].Path == e.Path && files[i].OldPath == "" {
					files[i].OldPath = e.OldPath
					break
				}
			}
		}
		if d := compareGit(files, c.Files); d != "" {
			return "git-ok/DISAGREE", d
		}
		return "git-ok/agree", fmt.Sprintf("%d files", len(c.Files))
	case o.Git.OK:
		return judgeOther("git-empty", o, c, err)
	default:
		class, detail = judgeOther("git-refused", o, c, err)
		return class, detail + " (git: " + strings.TrimSpace(o.Git.Reason) + ")"
	}
}

// judgeOther classifies a patch git reads as empty or refuses: parsed as
// GNU patch reads it, refused with a clear error, or neither.
func judgeOther(prefix string, o *oracle, c *changeset.Changeset, err error) (string, string) {
	var de *changeset.DialectError
	var pe *changeset.ParseError
	switch {
	case errors.As(err, &de):
		return prefix + "/refused-dialect", err.Error()
	case errors.As(err, &pe):
		return prefix + "/refused-error", err.Error()
	case err != nil:
		return prefix + "/UNCLEAR-error", err.Error()
	}
	var gnu []int
	for _, s := range o.GNU.Sections {
		if s.Hunks > 0 {
			gnu = append(gnu, s.Hunks)
		}
	}
	var ours []int
	headerOnly := 0
	for _, f := range c.Files {
		if len(f.Hunks) > 0 {
			ours = append(ours, len(f.Hunks))
		} else {
			headerOnly++
		}
	}
	desc := fmt.Sprintf("parsed %d files with hunks %v (+%d header-only); GNU patch: %v", len(ours), ours, headerOnly, gnu)
	if fmt.Sprint(gnu) == fmt.Sprint(ours) {
		return prefix + "/parsed-as-gnu", desc
	}
	if w := warnings(c); w != "" {
		return prefix + "/repaired-with-warning", desc + "; warnings: " + w
	}
	return prefix + "/DISAGREE-gnu", desc
}

// warnings lists the hunk warnings of c.
func warnings(c *changeset.Changeset) string {
	var out []string
	for _, f := range c.Files {
		for _, h := range f.Hunks {
			for _, w := range h.Warnings {
				out = append(out, fmt.Sprintf("%s hunk %d: %s", f.Path, h.Index, w))
			}
		}
	}
	return strings.Join(out, "; ")
}

// compareGit compares git's numstat files with ours, in patch order.
func compareGit(want []gitFile, got []changeset.File) string {
	var problems []string
	if len(want) != len(got) {
		problems = append(problems, fmt.Sprintf("git has %d files, parser %d", len(want), len(got)))
	}
	for i := 0; i < len(want) && i < len(got); i++ {
		w, g := want[i], got[i]
		wOld := w.OldPath
		if wOld == "" {
			wOld = w.Path
		}
		var diffs []string
		if w.Path != g.Path {
			diffs = append(diffs, fmt.Sprintf("path %q vs %q", w.Path, g.Path))
		}
		if wOld != g.OldPath {
			diffs = append(diffs, fmt.Sprintf("old_path %q vs %q", wOld, g.OldPath))
		}
		if w.Added != g.Additions || w.Deleted != g.Deletions {
			diffs = append(diffs, fmt.Sprintf("+%d -%d vs +%d -%d", w.Added, w.Deleted, g.Additions, g.Deletions))
		}
		if w.Binary != g.Binary {
			diffs = append(diffs, fmt.Sprintf("binary %v vs %v", w.Binary, g.Binary))
		}
		if len(diffs) > 0 {
			problems = append(problems, fmt.Sprintf("file %d (%s): %s", i, w.Path, strings.Join(diffs, ", ")))
		}
	}
	return strings.Join(problems, "; ")
}

func readManifest(path string) ([]map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open manifest: %w", err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.Comma = '\t'
	r.LazyQuotes = true
	r.FieldsPerRecord = -1
	header, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("read manifest header: %w", err)
	}
	var rows []map[string]string
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return rows, nil
		}
		if err != nil {
			return nil, fmt.Errorf("read manifest: %w", err)
		}
		m := map[string]string{}
		for i, h := range header {
			if i < len(rec) {
				m[h] = rec[i]
			}
		}
		rows = append(rows, m)
	}
}
