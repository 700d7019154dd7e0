// Command testimage builds deploy/Dockerfile the way package image's test
// does, so that `make test` pays for a cold build before the tests run
// (within go test's timeout), and removes what it built.
//
//	testimage build    build the image and the test cluster's servers (or find them cached); print the image's name, size and build time
//	testimage clean    remove the images it built or imported and its cache dir
//
// With MAKE_TEST_TIMES set to a file, build appends to it a line for each
// part of its time (servers, image bases, image podman build), which
// `make test` prints at its end (see .ci/make-test).
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/addon-actors/addon-operator/test/image"
)

const usage = "usage: testimage build | clean"

func main() {
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:])
	cancel()
	if err != nil {
		fmt.Fprintln(os.Stderr, "testimage:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string) error {
	switch {
	case len(args) == 1 && args[0] == "build":
		b, err := image.Ensure(ctx, os.Stderr)
		if err != nil {
			return err
		}
		fmt.Printf("%s\t%s\tbuild %s\n", b.Ref, image.MB(b.Size), b.BuildTime.Round(time.Second))
		return appendTimes(os.Getenv("MAKE_TEST_TIMES"), b)
	case len(args) == 1 && args[0] == "clean":
		return image.Clean(ctx)
	}
	return errors.New(usage)
}

// appendTimes writes b's parts to file in make-test's format, when file is
// set.
func appendTimes(file string, b image.Built) error {
	if file == "" {
		return nil
	}
	f, err := os.OpenFile(file, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("times file: %w", err)
	}
	defer f.Close()
	t := b.Times
	podman := "podman build: the Go stages from the host's caches, then the whole file"
	if b.Cached {
		podman = "cached"
	}
	for _, part := range []struct {
		name string
		took time.Duration
		note string
	}{
		{"servers", t.Servers, "beside the image's bases; cached when seconds"},
		{"image bases", t.Bases, "mmdebstrap and podman import; cached when seconds"},
		{"image waits", t.ServersWait, "for the servers, whose kubectl packages its kubectl stage reuses"},
		{"image", t.Podman, podman},
	} {
		if _, err := fmt.Fprintf(f, "%-16s %9s  %s\n", part.name, minSec(part.took), part.note); err != nil {
			return fmt.Errorf("times file: %w", err)
		}
	}
	return nil
}

// minSec formats d as make-test does: 12m05s.
func minSec(d time.Duration) string {
	s := int(d.Round(time.Second).Seconds())
	return fmt.Sprintf("%dm%02ds", s/60, s%60)
}
