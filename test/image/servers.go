package image

import (
	"context"
	"io"
	"time"

	"github.com/addon-actors/addon-operator/test/cluster"
)

// servers is the test cluster's build, run beside the base images (which
// wait on the network and the disk, not the cores). The image's Go stages
// start after it: its kubectl stage compiles the packages that the servers'
// kubectl has just put in the host's Go build cache (both -trimpath, no
// cgo, the same module versions), so they are compiled once.
type servers struct {
	done chan struct{}
	bins cluster.Binaries
	took time.Duration
	err  error
}

func startServers(ctx context.Context, log io.Writer) *servers {
	s := &servers{done: make(chan struct{})}
	go func() {
		defer close(s.done)
		start := time.Now()
		s.bins, s.err = cluster.EnsureBinaries(ctx, log)
		s.took = time.Since(start)
	}()
	return s
}

// wait returns once the build is done, with how long the caller waited
// for it (the build's time that the bases did not cover).
func (s *servers) wait() (time.Duration, error) {
	start := time.Now()
	<-s.done
	return time.Since(start), s.err
}
