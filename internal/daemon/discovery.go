package daemon

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// DiscoveryFile is the discovery file's name in the runtime directory.
const DiscoveryFile = "daemon.json"

// Discovery is what a client needs to reach the running daemon. The file
// holding it is the daemon's secret: mode 0600, in a 0700 directory.
type Discovery struct {
	Version string `json:"version"`
	// Addr is the listening address, "127.0.0.1:PORT".
	Addr    string    `json:"addr"`
	Token   string    `json:"token"`
	PID     int       `json:"pid"`
	Started time.Time `json:"started"`
}

// BaseURL is the daemon's root URL, "http://127.0.0.1:PORT".
func (d Discovery) BaseURL() string { return "http://" + d.Addr }

// PrepareRuntimeDir creates dir with mode 0700 if missing, and refuses a
// directory that others can reach into or that is not the user's own (its
// fallback location is in a shared temporary directory, where another
// user could have planted it).
func PrepareRuntimeDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create runtime directory %s: %w", dir, err)
	}
	info, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("runtime directory %s: %w", dir, err)
	}
	if !info.IsDir() {
		return fmt.Errorf("runtime directory %s is not a directory (a symbolic link?); remove it", dir)
	}
	if err := checkOwner(info); err != nil {
		return fmt.Errorf("runtime directory %s: %w", dir, err)
	}
	if info.Mode().Perm()&0o077 != 0 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return fmt.Errorf("runtime directory %s is open to other users and cannot be closed: %w", dir, err)
		}
	}
	return nil
}

// WriteDiscovery replaces the discovery file in dir atomically, mode 0600.
func WriteDiscovery(dir string, d Discovery) error {
	if err := PrepareRuntimeDir(dir); err != nil {
		return err
	}
	b, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+DiscoveryFile+".tmp-*")
	if err != nil {
		return fmt.Errorf("write discovery file: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("write discovery file: %w", err)
	}
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("write discovery file: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write discovery file: %w", err)
	}
	if err := os.Rename(tmp.Name(), filepath.Join(dir, DiscoveryFile)); err != nil {
		return fmt.Errorf("write discovery file: %w", err)
	}
	return nil
}

// ErrNoDaemon is returned by ReadDiscovery when no daemon has left a
// discovery file.
var ErrNoDaemon = errors.New("no leanreview daemon is running")

// ReadDiscovery reads the discovery file in dir. A file others could read
// is refused: its token may have leaked.
func ReadDiscovery(dir string) (Discovery, error) {
	path := filepath.Join(dir, DiscoveryFile)
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Discovery{}, ErrNoDaemon
	}
	if err != nil {
		return Discovery{}, fmt.Errorf("read discovery file: %w", err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return Discovery{}, fmt.Errorf("read discovery file: %w", err)
	}
	if info.Mode().Perm()&0o077 != 0 {
		return Discovery{}, fmt.Errorf("discovery file %s is readable by other users (mode %v); its token may have leaked: stop the daemon and remove the file", path, info.Mode().Perm())
	}
	var d Discovery
	if err := json.NewDecoder(f).Decode(&d); err != nil {
		return Discovery{}, fmt.Errorf("read discovery file %s: %w", path, err)
	}
	return d, nil
}

// removeDiscovery removes the discovery file if it still names this
// daemon's token: a successor may already have written its own.
func removeDiscovery(dir, token string) {
	if d, err := ReadDiscovery(dir); err == nil && d.Token == token {
		_ = os.Remove(filepath.Join(dir, DiscoveryFile))
	}
}
