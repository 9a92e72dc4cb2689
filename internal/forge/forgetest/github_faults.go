package forgetest

import (
	"net/http"
	"strconv"
	"time"
)

// faultAnswer writes the error a fault stands for, checked like any answer.
func (g *GitHub) faultAnswer(w http.ResponseWriter, checked *checkedRequest, f Fault) {
	status, h, body := g.faultResponse(f)
	g.answer(w, checked, status, h, body, false)
}

// faultResponse is the answer a fault stands for.
func (g *GitHub) faultResponse(f Fault) (int, http.Header, obj) {
	h := g.rateHeaders()
	var status int
	var body obj
	secs := strconv.Itoa(int(f.RetryAfter.Round(time.Second) / time.Second))
	switch f.Kind {
	case FaultRateLimit, FaultSecondaryLimit403:
		status = http.StatusTooManyRequests
		if f.Kind == FaultSecondaryLimit403 {
			status = http.StatusForbidden
		}
		h.Set("Retry-After", secs)
		body = ghErr(status, "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
			"https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits")
	case FaultPrimaryLimit:
		status = http.StatusForbidden
		h.Set("X-Ratelimit-Remaining", "0")
		h.Set("X-Ratelimit-Reset", strconv.FormatInt(g.opts.Now().Add(f.RetryAfter).Unix(), 10))
		body = ghErr(status, "API rate limit exceeded for user ID 101.",
			"https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting")
	default:
		status = http.StatusInternalServerError
		body = ghErr(status, "Server Error", "")
	}
	return status, h, body
}

func (g *GitHub) rateHeaders() http.Header {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.remaining > 0 {
		g.remaining--
	}
	h := http.Header{}
	h.Set("X-Ratelimit-Limit", "5000")
	h.Set("X-Ratelimit-Remaining", strconv.Itoa(g.remaining))
	h.Set("X-Ratelimit-Used", strconv.Itoa(5000-g.remaining))
	h.Set("X-Ratelimit-Reset", strconv.FormatInt(g.opts.Now().Add(time.Hour).Unix(), 10))
	h.Set("X-Ratelimit-Resource", "core")
	return h
}
