package httpapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/leanreview/leanreview/internal/app"
)

// Event is one server-sent event of GET /sessions/{id}/events, sent as
// "event: KIND" and "data: JSON". Kind is:
//   - "hello": sent once when the stream opens, with the digest now, so a
//     client that reconnects can tell whether it missed a reload;
//   - "changed": drafts, viewed marks, the cursor or suggestions changed;
//   - "reloaded": the changeset was read again and is now AsOf: fetch it;
//   - "stale": the source moved; reload.
//
// Every event is a cue to fetch the state again, not a delta: a slow
// reader may miss intermediate events but never the latest.
type Event struct {
	Kind string `json:"kind"`
	AsOf string `json:"as_of"`
}

var eventKinds = map[app.EventKind]string{
	app.EventChanged:  "changed",
	app.EventReloaded: "reloaded",
	app.EventStale:    "stale",
}

func eventKind(name string) (app.EventKind, bool) {
	for k, n := range eventKinds {
		if n == name {
			return k, true
		}
	}
	return 0, false
}

// keepAlive is how often an idle stream sends a comment line, so proxies
// and the client notice a dead connection.
const keepAlive = 20 * time.Second

func (s *Server) events(w http.ResponseWriter, r *http.Request, _ string, svc app.Service) {
	flusher, ok := w.(http.Flusher)
	if !ok {
		fail(w, fmt.Errorf("this connection cannot stream events"))
		return
	}
	// Subscribe before the headers go out, so a client that has seen the
	// response cannot miss an event that follows it.
	ch, err := svc.Subscribe(r.Context())
	if err != nil {
		fail(w, err)
		return
	}
	snap, err := svc.Snapshot(r.Context())
	if err != nil {
		fail(w, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	if writeEvent(w, Event{Kind: "hello", AsOf: snap.AsOf}) != nil {
		return
	}
	flusher.Flush()
	tick := time.NewTicker(keepAlive)
	defer tick.Stop()
	for {
		select {
		case ev, open := <-ch:
			if !open {
				return
			}
			if writeEvent(w, Event{Kind: eventKinds[ev.Kind], AsOf: ev.AsOf}) != nil {
				return
			}
		case <-tick.C:
			if _, err := fmt.Fprint(w, ": keep-alive\n\n"); err != nil {
				return
			}
		case <-r.Context().Done():
			return
		}
		flusher.Flush()
	}
}

func writeEvent(w http.ResponseWriter, ev Event) error {
	data, err := json.Marshal(ev)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev.Kind, data)
	return err
}
