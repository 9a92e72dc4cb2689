package daemon

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"strings"
)

// DefaultAddr listens on IPv4 loopback at a port the system picks.
const DefaultAddr = "127.0.0.1:0"

// ErrNotLoopback is returned by Listen for an address other machines could
// reach.
var ErrNotLoopback = errors.New("not a loopback address")

// Listen opens a TCP listener on addr, which must be a loopback address:
// 127.0.0.0/8, ::1 or "localhost" (taken as 127.0.0.1). Anything else is
// refused with ErrNotLoopback: the API has no TLS and its token is a bearer
// secret, so it must never be reachable from the network.
func Listen(addr string) (net.Listener, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("listen address %q: %w", addr, err)
	}
	if strings.EqualFold(host, "localhost") {
		host = "127.0.0.1"
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		what := host
		if what == "" {
			what = "every interface"
		}
		return nil, fmt.Errorf("leanreview serves on loopback only, and %s is not loopback; use 127.0.0.1:PORT or [::1]:PORT: %w", what, ErrNotLoopback)
	}
	return net.Listen("tcp", net.JoinHostPort(ip.String(), port))
}

// newSecret returns 256 random bits, base64url without padding.
func newSecret() string {
	var b [32]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// secretEqual compares in constant time, so a wrong guess's timing says
// nothing about the secret.
func secretEqual(a, b string) bool {
	return len(a) == len(b) && subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}
