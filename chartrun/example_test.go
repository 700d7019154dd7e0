package chartrun_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"

	"k8s.io/client-go/rest"

	"github.com/addon-actors/addon-operator/chartrun"
)

// A module run's helm phase: upgrade the module's release, which does
// nothing when the chart renders the same with the same values and all of
// the release's objects exist.
func ExampleReleaser_Upgrade() {
	config, err := rest.InClusterConfig()
	if err != nil {
		fmt.Println(err)
		return
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	releaser, err := chartrun.NewReleaser(config, "addon-operator", chartrun.Options{Log: log.With("component", "helm")})
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := releaser.Upgrade(context.Background(), chartrun.Request{
		Release:  "some-module",
		ChartDir: "/modules/001-some-module",
		Values:   map[string]any{"someModule": map[string]any{"replicas": 2}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	switch res.Action {
	case chartrun.NoChart, chartrun.Skipped:
		fmt.Println("nothing to do:", res.Reason)
	default:
		fmt.Printf("%s revision %d: %s\n", res.Action, res.Revision, res.Reason)
	}
}

// The lifecycle purges the releases this operator installed whose module
// dir is gone; releases of others are never listed.
func ExampleReleaser_List() {
	config, err := rest.InClusterConfig()
	if err != nil {
		fmt.Println(err)
		return
	}
	releaser, err := chartrun.NewReleaser(config, "addon-operator", chartrun.Options{IgnoreRelease: os.Getenv("HELM_IGNORE_RELEASE")})
	if err != nil {
		fmt.Println(err)
		return
	}
	modules := map[string]bool{"some-module": true}
	names, err := releaser.List(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, name := range names {
		if !modules[name] {
			if err := releaser.Delete(context.Background(), name); err != nil {
				fmt.Println(err)
			}
		}
	}
}
