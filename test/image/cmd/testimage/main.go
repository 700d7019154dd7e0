// Command testimage builds deploy/Dockerfile the way package image's test
// does, so that `make test` pays for a cold build before the tests run
// (within go test's timeout), and removes what it built.
//
//	testimage build    build the image (or find it cached); print its name, size and build time
//	testimage clean    remove the images it built or imported and its cache dir
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
		return nil
	case len(args) == 1 && args[0] == "clean":
		return image.Clean(ctx)
	}
	return errors.New(usage)
}
