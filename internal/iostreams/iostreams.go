// Package iostreams is the one way leanreview's commands reach the terminal:
// every byte a command prints goes through an IOStreams value, so tests can
// substitute buffers and the terminal UI can own the screen alone.
package iostreams

import (
	"bytes"
	"io"
	"os"

	"golang.org/x/term"
)

// IOStreams bundles standard input, output and error with what is known
// about them. The zero value is not usable; use System or Test.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer

	// InTTY and OutTTY report whether In and Out are terminals.
	InTTY  bool
	OutTTY bool
}

// System returns the process's standard streams.
func System() *IOStreams {
	return &IOStreams{
		In:     os.Stdin,
		Out:    os.Stdout,
		ErrOut: os.Stderr,
		InTTY:  term.IsTerminal(int(os.Stdin.Fd())),
		OutTTY: term.IsTerminal(int(os.Stdout.Fd())),
	}
}

// Test returns streams backed by buffers: stdin reads in, and the returned
// buffers collect standard output and standard error.
func Test(in string) (ios *IOStreams, out, errOut *bytes.Buffer) {
	out, errOut = &bytes.Buffer{}, &bytes.Buffer{}
	return &IOStreams{In: bytes.NewBufferString(in), Out: out, ErrOut: errOut}, out, errOut
}
