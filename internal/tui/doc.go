// Package tui is leanreview's terminal surface: a Bubble Tea program that
// shows one review (an app.Service) as a file sidebar, a unified or split
// diff, a status bar (with the agent's pending suggestion above it) and a
// few overlays (help, file picker, drafts and threads list, suggestions
// list, submission confirmation, search prompt). It reads and writes the
// review only through app.Service; a pull or merge request's threads and
// submission come through the ThreadSource and Submitter it is given.
//
// Coordinates, and how they convert (all conversions live in layout.go and
// viewport.go; nothing else computes them):
//
//   - Pos is semantic: a file index, a hunk index within it (-1 for the
//     file heading) and a row index into Hunk.Rows (-1 for the hunk
//     heading). The cursor is a Pos, so it survives every change of
//     projection: resize, fold, wrap toggle, unified <-> split toggle.
//     Comments are placed by side and line number (changeset.Location) and
//     mapped onto a Pos when the snapshot arrives; a Pos is never saved.
//   - slot is the index of one logical item (file heading, file note, hunk
//     heading, diff row or row pair, comment preview) in the flat list the
//     current projection shows. A unified slot is one Row; a split slot is a
//     pair of an old and a new Row. layout maps Pos <-> slot in O(log n)
//     through prefix sums over hunks, recomputed (O(hunks)) after a fold or
//     a view toggle, never per key.
//   - Screen rows: an item is one or more screen rows tall (wrapping,
//     multi-line previews). Heights are computed only for items on screen:
//     the viewport is a top slot plus the rows of it scrolled off, and every
//     movement walks at most a screenful of items from there. So a keypress
//     costs O(visible rows + log n) whatever the size of the diff.
//   - Columns: text is drawn in terminal cells after tab expansion; byte
//     spans (word emphasis from changeset.RawLineEmphasis, syntax tokens,
//     search hits) are converted to cells only while a visible line is
//     drawn (text.go).
package tui
