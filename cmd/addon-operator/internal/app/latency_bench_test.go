package app_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/addon-actors/addon-operator/board"
)

// BenchmarkEventToHookStart measures, with an idle queue, the time from a
// ConfigMap update to the start of the hook it runs, as the hook itself
// sees it: its first command writes the clock. The hook is a /bin/sh
// script, so its own start-up and that of date(1) are in the figure.
// ms-median counts from just before the update call; ms-after-write from
// its return (the object is stored; the watch event follows).
func BenchmarkEventToHookStart(b *testing.B) {
	ns := kube.Namespace(b)
	cms := kubernetes.NewForConfigOrDie(kube.Config(b)).CoreV1().ConfigMaps(ns)
	ctx := context.Background()
	probe := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "probe"}, Data: map[string]string{"n": "0"}}
	probe, err := cms.Create(ctx, probe, metav1.CreateOptions{})
	if err != nil {
		b.Fatal(err)
	}
	config := `{"configVersion":"v1","kubernetes":[{"name":"probe","apiVersion":"v1","kind":"ConfigMap",` +
		`"executeHookOnSynchronization":false,"namespace":{"nameSelector":{"matchNames":["` + ns + `"]}},` +
		`"nameSelector":{"matchNames":["probe"]},"jqFilter":".data"}]}`
	hook := "#!/bin/sh\nif [ \"${1:-}\" = --config ]; then echo '" + config + "'; exit 0; fi\n" +
		"date +%s%N >> \"$RECORD_DIR/starts\"\n"
	root := tree(b, map[string]string{"global-hooks/probe": hook})
	if err := os.MkdirAll(filepath.Join(root, "record"), 0o755); err != nil {
		b.Fatal(err)
	}
	s := startAppIn(b, root, ns)
	s.waitReady(b)
	s.waitFor(b, "idle", idle)
	var latencies, afterWrite []time.Duration
	b.ResetTimer()
	for i := range b.N {
		probe.Data["n"] = strconv.Itoa(i + 1)
		sent := time.Now()
		if probe, err = cms.Update(ctx, probe, metav1.UpdateOptions{}); err != nil {
			b.Fatal(err)
		}
		written := time.Now()
		s.waitFor(b, fmt.Sprintf("run %d", i+1), func(bd *board.Board) bool { return bd.Hooks()["global:probe"].Runs > i })
		started := lastStart(b, s)
		latencies = append(latencies, started-time.Duration(sent.UnixNano()))
		afterWrite = append(afterWrite, started-time.Duration(written.UnixNano()))
	}
	b.StopTimer()
	b.ReportMetric(percentile(latencies, 50), "ms-median")
	b.ReportMetric(percentile(latencies, 90), "ms-p90")
	b.ReportMetric(percentile(afterWrite, 50), "ms-after-write")
}

// percentile is the p-th percentile of ds in milliseconds.
func percentile(ds []time.Duration, p int) float64 {
	ds = slices.Clone(ds)
	slices.Sort(ds)
	return float64(ds[len(ds)*p/100].Microseconds()) / 1000
}

// lastStart is the newest start time the probe hook wrote.
func lastStart(b *testing.B, s *started) time.Duration {
	lines := strings.Fields(s.record(b, "starts"))
	ns, err := strconv.ParseInt(lines[len(lines)-1], 10, 64)
	if err != nil {
		b.Fatal(err)
	}
	return time.Duration(ns)
}
