package daemon

import (
	"net/http"
	"sync"
	"time"
)

// activity tracks requests in flight (an open event stream is one) and
// when the last one ended, for idle shutdown. Safe for concurrent use.
type activity struct {
	now func() time.Time

	mu     sync.Mutex
	active int
	last   time.Time
}

func (a *activity) track(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a.mu.Lock()
		a.active++
		a.mu.Unlock()
		defer func() {
			a.mu.Lock()
			a.active--
			a.last = a.now()
			a.mu.Unlock()
		}()
		next.ServeHTTP(w, r)
	})
}

// idleFor reports how long no request has been in flight; zero while one is.
func (a *activity) idleFor() time.Duration {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.active > 0 {
		return 0
	}
	return a.now().Sub(a.last)
}

// waitIdle returns once nothing has been in flight for timeout, or when
// done is closed. A zero timeout waits for done alone.
func (a *activity) waitIdle(timeout time.Duration, done <-chan struct{}) {
	if timeout <= 0 {
		<-done
		return
	}
	tick := min(timeout/4, time.Minute)
	t := time.NewTicker(max(tick, 10*time.Millisecond))
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-t.C:
			if a.idleFor() >= timeout {
				return
			}
		}
	}
}
