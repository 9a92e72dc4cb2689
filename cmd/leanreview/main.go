// Command leanreview reviews a change in the terminal, the browser, or
// together with an AI agent. See README.md.
package main

import (
	"context"
	"os"
	"os/signal"

	"github.com/leanreview/leanreview/internal/cli"
	"github.com/leanreview/leanreview/internal/iostreams"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := cli.Main(ctx, os.Args[1:], iostreams.System())
	stop()
	os.Exit(code)
}
