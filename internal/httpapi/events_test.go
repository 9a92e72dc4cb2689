package httpapi

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestReadEvents_ParsesTheStreamAndSkipsCommentsAndJunk(t *testing.T) {
	stream := "event: hello\ndata: {\"kind\":\"hello\",\"as_of\":\"d0\"}\n\n" +
		": keep-alive\n\n" +
		"event: changed\ndata: {\"kind\":\"changed\",\n" + // one value over two data lines
		"data: \"as_of\":\"d0\"}\n\n" +
		"data: not json\n\n" +
		"event: reloaded\r\ndata:{\"kind\":\"reloaded\",\"as_of\":\"d1\"}\n\n" +
		"data: {\"kind\":\"stale\",\"as_of\":\"d1\"}" // cut off: no blank line
	var got []Event
	readEvents(strings.NewReader(stream), func(ev Event) { got = append(got, ev) })
	want := []Event{{"hello", "d0"}, {"changed", "d0"}, {"reloaded", "d1"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}
