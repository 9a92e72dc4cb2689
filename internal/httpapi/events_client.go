package httpapi

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"

	"github.com/leanreview/leanreview/internal/app"
)

// Subscribe implements app.Service over the event stream. It returns once
// the daemon has accepted the subscription, so every change after it is
// reported. The channel closes when ctx ends or the stream is lost (the
// daemon stopped): unlike app.Local, a remote review can go away, and the
// caller resubscribes or tells the user.
func (s *Session) Subscribe(ctx context.Context) (<-chan app.Event, error) {
	resp, err := s.c.send(ctx, http.MethodGet, s.path("events"), nil, http.Header{"Accept": {"text/event-stream"}})
	if err != nil {
		return nil, err
	}
	ch := make(chan app.Event, 1)
	go func() {
		defer close(ch)
		defer resp.Body.Close()
		readEvents(resp.Body, func(ev Event) {
			kind, ok := eventKind(ev.Kind)
			if !ok {
				return // hello, or a kind this client does not know
			}
			latest(ch, app.Event{Kind: kind, AsOf: ev.AsOf})
		})
	}()
	return ch, nil
}

// latest delivers ev on ch, replacing an undelivered event: each is a cue
// to take a new Snapshot, so only the newest matters.
func latest(ch chan app.Event, ev app.Event) {
	for {
		select {
		case ch <- ev:
			return
		default:
			select {
			case <-ch:
			default:
			}
		}
	}
}

// readEvents parses a text/event-stream body and calls deliver for each
// event whose data is an Event, until the body ends.
func readEvents(body io.Reader, deliver func(Event)) {
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	var data strings.Builder
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if data.Len() > 0 {
				var ev Event
				if json.Unmarshal([]byte(data.String()), &ev) == nil {
					deliver(ev)
				}
				data.Reset()
			}
		case strings.HasPrefix(line, "data:"):
			if data.Len() > 0 {
				data.WriteByte('\n')
			}
			data.WriteString(strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " "))
		}
	}
}
