package forge

import (
	"regexp"
	"strings"
)

// A marker is an HTML comment, "<!-- leanreview:ID -->", that ends every body
// leanreview sends. Hosts render Markdown and hide it; it is what lets a
// retry recognise, after an answer was lost, that the host already holds a
// draft. IDs are 1 to 64 characters of [A-Za-z0-9._-].

const (
	markerPrefix = "<!-- leanreview:"
	markerSuffix = " -->"
)

var markerRE = regexp.MustCompile(`<!-- leanreview:([A-Za-z0-9._-]{1,64}) -->\s*$`)

var markerIDRE = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

// ValidMarkerID reports whether id can travel in a marker.
func ValidMarkerID(id string) bool { return markerIDRE.MatchString(id) }

// Marker is the marker text for id.
func Marker(id string) string { return markerPrefix + id + markerSuffix }

// WithMarker returns body followed by id's marker on a line of its own; an
// empty body becomes the marker alone. A marker body already ends with is
// replaced, so a re-sent body never carries two.
func WithMarker(body, id string) string {
	body = strings.TrimRight(StripMarker(body), " \t\r\n")
	if body == "" {
		return Marker(id)
	}
	return body + "\n\n" + Marker(id)
}

// MarkerOf returns the marker id body ends with, "" when it carries none.
// Only a trailing marker counts: one quoted in the middle of a comment is
// text, not identity.
func MarkerOf(body string) string {
	m := markerRE.FindStringSubmatch(body)
	if m == nil {
		return ""
	}
	return m[1]
}

// StripMarker removes a trailing marker (and the blank line before it) for
// display.
func StripMarker(body string) string {
	loc := markerRE.FindStringIndex(body)
	if loc == nil {
		return body
	}
	return strings.TrimRight(body[:loc[0]], " \t\r\n")
}
