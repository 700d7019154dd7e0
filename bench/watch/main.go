package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/addon-actors/addon-operator/test/scenario"
)

const namespace = "bench"

type options struct {
	objects     int
	patches     int
	clients     int
	group       bool
	includeSelf bool
	baseline    string
	bin         string
	runs        int
	keep        bool
	profiles    string
}

func main() {
	var o options
	flag.IntVar(&o.objects, "objects", 10000, "ConfigMaps to create and watch (~1 KB each)")
	flag.IntVar(&o.patches, "patches", 2000, "label patches in the storm")
	flag.IntVar(&o.clients, "clients", 8, "clients patching in parallel during the storm")
	flag.BoolVar(&o.group, "group", false, "put the binding in group g")
	flag.BoolVar(&o.includeSelf, "include-self", false, "give the binding includeSnapshotsFrom: [itself]")
	flag.StringVar(&o.baseline, "baseline", "", "an operator binary to measure alternately with this one")
	flag.StringVar(&o.bin, "bin", "", "measure this operator binary instead of building ./cmd/addon-operator")
	flag.IntVar(&o.runs, "runs", 1, "runs of each binary")
	flag.BoolVar(&o.keep, "keep", false, "keep the work dir")
	flag.StringVar(&o.profiles, "profiles", "", "write each run's heap profile at rest (after a GC) and after the storm into this dir")
	flag.Parse()
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "watch:", err)
		os.Exit(1)
	}
}

func run(o options) error {
	if o.objects < 2 {
		return fmt.Errorf("-objects %d: want at least 2", o.objects)
	}
	setup, err := scenario.StartBench("bench-watch-", o.bin, o.keep)
	if err != nil {
		return err
	}
	defer setup.Close()
	ctx := context.Background()
	objs, err := newObjects(setup.Cluster.Kubeconfig, namespace, o.objects)
	if err != nil {
		return err
	}
	start := time.Now()
	if err := objs.create(ctx); err != nil {
		return err
	}
	fmt.Printf("fixture: %d ConfigMaps of ~1 KB created in %.1fs; binding group=%v includeSnapshotsFrom self=%v; storm %d patches by %d clients\n",
		o.objects, time.Since(start).Seconds(), o.group, o.includeSelf, o.patches, o.clients)
	b := bench{o: o, launch: setup.Launch(namespace), objs: objs}
	for range max(o.runs, 1) {
		if err := b.measure(ctx, "", setup.Binary); err != nil {
			return err
		}
		if o.baseline != "" {
			if err := b.measure(ctx, "baseline ", o.baseline); err != nil {
				return err
			}
		}
	}
	return nil
}
