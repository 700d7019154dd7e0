package chartrun_test

import (
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/chartrun"
	"github.com/addon-actors/addon-operator/test/actortest"
	"github.com/addon-actors/addon-operator/test/cluster"
)

// The release and object indexes' watches are not resumed after an
// apiserver outage: their drop is logged at WARN, and the runs they would
// have served read the cluster once the apiserver is back.
func TestIndexWatchDropIsLoggedAndRunsReadTheCluster(t *testing.T) {
	ns := "indexes"
	c, cfg, _ := cluster.PrivateNamespace(t, ns)
	ctx := cluster.TestContext(t, 5*time.Minute)
	dir := writeChart(t, 1)
	req := func(name string) chartrun.Request {
		return chartrun.Request{Release: name, ChartDir: dir, Values: map[string]any{"demo": map[string]any{"value": name}}}
	}
	first, err := chartrun.NewReleaser(cfg, ns, chartrun.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a", "b"} {
		if _, err := first.Upgrade(ctx, req(name)); err != nil {
			t.Fatalf("install %s: %v", name, err)
		}
	}
	logs := make(chan slog.Record, 256)
	restarted, err := chartrun.NewReleaser(cfg, ns, chartrun.Options{Log: slog.New(actortest.LogHandler(logs))})
	if err != nil {
		t.Fatal(err)
	}
	if res, err := restarted.Upgrade(ctx, req("a")); err != nil || res.Action != chartrun.Skipped {
		t.Fatalf("first run after the restart: %+v, %v; want skipped", res, err)
	}

	c.Outage(t, ctx, 0, func() {
		expectWarns(t, logs, "helm release index watch dropped", "helm object index watch dropped")
	})
	if res, err := restarted.Upgrade(ctx, req("b")); err != nil || res.Action != chartrun.Skipped {
		t.Fatalf("run of b after the outage: %+v, %v; want skipped (read from the cluster)", res, err)
	}
}

// expectWarns waits for a WARN record starting with each prefix, in any
// order (the two watches drop on their own goroutines).
func expectWarns(t *testing.T, logs <-chan slog.Record, prefixes ...string) {
	t.Helper()
	deadline := time.After(time.Minute)
	missing := slices.Clone(prefixes)
	for len(missing) > 0 {
		select {
		case r := <-logs:
			if r.Level != slog.LevelWarn {
				continue
			}
			missing = slices.DeleteFunc(missing, func(p string) bool { return strings.HasPrefix(r.Message, p) })
		case <-deadline:
			t.Fatalf("no WARN %q within a minute", missing)
		}
	}
}
