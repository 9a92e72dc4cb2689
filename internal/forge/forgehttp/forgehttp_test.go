package forgehttp

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/leanreview/leanreview/internal/forge"
)

type recordingSleeper struct{ waits []time.Duration }

func (r *recordingSleeper) Sleep(_ context.Context, d time.Duration) error {
	r.waits = append(r.waits, d)
	return nil
}

func answer(status int, h map[string]string) *http.Response {
	resp := &http.Response{StatusCode: status, Header: http.Header{}}
	for k, v := range h {
		resp.Header.Set(k, v)
	}
	return resp
}

var now = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func TestClassify_SortsAnswersIntoClasses(t *testing.T) {
	c := Caller{Kind: forge.KindGitHub, Now: func() time.Time { return now }}
	reset := now.Add(90 * time.Second).Unix()
	tests := []struct {
		name      string
		resp      *http.Response
		class     error
		wait      time.Duration
		uncertain bool
	}{
		{"no answer", nil, forge.ErrUnavailable, 0, true},
		{"401", answer(401, nil), forge.ErrUnauthorized, 0, false},
		{"403 plain", answer(403, nil), forge.ErrForbidden, 0, false},
		{"403 secondary limit", answer(403, map[string]string{"Retry-After": "12"}), forge.ErrRateLimited, 12 * time.Second, false},
		{"403 quota spent", answer(403, map[string]string{"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": itoa(reset)}), forge.ErrRateLimited, 90 * time.Second, false},
		{"429 gitlab reset", answer(429, map[string]string{"RateLimit-Remaining": "0", "RateLimit-Reset": itoa(reset)}), forge.ErrRateLimited, 90 * time.Second, false},
		{"429 bare", answer(429, nil), forge.ErrRateLimited, 0, false},
		{"404", answer(404, nil), forge.ErrNotFound, 0, false},
		{"422", answer(422, nil), forge.ErrRejected, 0, false},
		{"400", answer(400, nil), forge.ErrRejected, 0, false},
		{"502", answer(502, nil), forge.ErrUnavailable, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			he := c.Classify("op", Try{Resp: tt.resp, Err: errors.New("boom")})
			if he.Class != tt.class || he.RetryAfter != tt.wait || he.Uncertain != tt.uncertain {
				t.Errorf("got %v wait %v uncertain %v", he.Class, he.RetryAfter, he.Uncertain)
			}
		})
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func TestCall_RetriesReadsWithBackoffAndTheHostsWait(t *testing.T) {
	sl := &recordingSleeper{}
	c := Caller{Kind: forge.KindGitLab, Sleep: sl, Policy: forge.RetryPolicy{Attempts: 4, Base: time.Second, Max: 3 * time.Second, MaxWait: time.Minute}}
	tries := []Try{
		{Resp: answer(500, nil), Err: errors.New("500")},
		{Resp: answer(429, map[string]string{"Retry-After": "10"}), Err: errors.New("429")},
		{Err: errors.New("connection reset")},
		{},
	}
	n := 0
	err := c.Call(context.Background(), "read", func(context.Context) Try { n++; return tries[n-1] }, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]time.Duration{time.Second, 10 * time.Second, 3 * time.Second}, sl.waits); d != "" {
		t.Errorf("waits (-want +got):\n%s", d)
	}
}

func TestCall_AWriteIsNotResentWhenTheHostAlreadyHasIt(t *testing.T) {
	sl := &recordingSleeper{}
	c := Caller{Kind: forge.KindGitHub, Sleep: sl}
	sends, checks := 0, 0
	err := c.Call(context.Background(), "write", func(context.Context) Try {
		sends++
		return Try{Err: errors.New("EOF")}
	}, func(context.Context) (bool, error) { checks++; return true, nil })
	if err != nil || sends != 1 || checks != 1 {
		t.Errorf("err %v, sends %d, checks %d: want one send, one check, success", err, sends, checks)
	}
}

func TestCall_GivesUpWithAnExplainedErrorAfterTheLastTry(t *testing.T) {
	c := Caller{Kind: forge.KindGitHub, Sleep: &recordingSleeper{}, Policy: forge.RetryPolicy{Attempts: 2, Base: time.Second, Max: time.Second, MaxWait: time.Minute}}
	err := c.Call(context.Background(), "read pull request a/b#1", func(context.Context) Try {
		return Try{Resp: answer(503, nil), Reason: "Service Unavailable", Err: errors.New("503")}
	}, nil)
	var he *forge.HostError
	if !errors.As(err, &he) || he.Attempts != 2 || !errors.Is(err, forge.ErrUnavailable) {
		t.Fatalf("err = %v", err)
	}
	if want := "GitHub unavailable for read pull request a/b#1 (503) after 2 tries: Service Unavailable"; err.Error() != want {
		t.Errorf("message = %q\nwant      %q", err.Error(), want)
	}
	if err := c.Call(context.Background(), "x", func(context.Context) Try {
		return Try{Resp: answer(401, nil), Err: errors.New("401")}
	}, nil); !errors.Is(err, forge.ErrUnauthorized) {
		t.Errorf("401 = %v, want ErrUnauthorized at once", err)
	}
}
