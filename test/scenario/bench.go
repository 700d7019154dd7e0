package scenario

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/addon-actors/addon-operator/test/cluster"
)

// Bench is a bench program's setup: a work dir, a test cluster in it and
// the operator binary to measure.
type Bench struct {
	Work    string
	Cluster *cluster.Cluster
	Binary  string
	keep    bool
}

// StartBench makes a work dir named after prefix, starts a cluster in it
// and builds the operator there unless bin names one; Close undoes it (the
// work dir stays when keep is set).
func StartBench(prefix, bin string, keep bool) (*Bench, error) {
	work, err := os.MkdirTemp("", prefix)
	if err != nil {
		return nil, fmt.Errorf("work dir: %w", err)
	}
	b := &Bench{Work: work, keep: keep}
	b.Cluster, err = cluster.Start(context.Background(), filepath.Join(work, "cluster"), cluster.Options{DieWithParent: true})
	if err == nil {
		b.Binary, err = OperatorBinary(bin, work)
	}
	if err != nil {
		b.Close()
		return nil, err
	}
	return b, nil
}

// Close stops the cluster and removes the work dir unless kept.
func (b *Bench) Close() {
	if b.Cluster != nil {
		_ = cluster.Stop(b.Cluster.Dir)
	}
	if !b.keep {
		_ = os.RemoveAll(b.Work)
	}
}

// Launch is where the bench runs the operator: b's work dir and cluster,
// namespace ns.
func (b *Bench) Launch(ns string) Launch {
	return Launch{Root: b.Work, Namespace: ns, Kubeconfig: b.Cluster.Kubeconfig, TmpDir: filepath.Join(b.Work, "tmp")}
}
