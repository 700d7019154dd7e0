package bctx

import (
	"encoding/json"
	"fmt"
	"testing"
)

// podJSON is a typical Pod of about 1.5 KB.
func podJSON(i int) json.RawMessage {
	return json.RawMessage(fmt.Sprintf(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"pod-%d","namespace":"default","uid":"0b1f6c2e-%08d","resourceVersion":"%d","labels":{"app":"web","tier":"frontend","pod-template-hash":"5d4f8c7b9"},"annotations":{"kubernetes.io/psp":"restricted","checksum/config":"8f14e45fceea167a5a36dedd4bea2543"}},"spec":{"containers":[{"name":"web","image":"nginx:1.27","ports":[{"containerPort":80,"protocol":"TCP"}],"resources":{"requests":{"cpu":"100m","memory":"128Mi"},"limits":{"memory":"256Mi"}},"volumeMounts":[{"name":"config","mountPath":"/etc/nginx/conf.d"}]}],"volumes":[{"name":"config","configMap":{"name":"web-config"}}],"nodeName":"node-%d","serviceAccountName":"default"},"status":{"phase":"Running","podIP":"10.0.%d.%d","conditions":[{"type":"Ready","status":"True"},{"type":"ContainersReady","status":"True"}]}}`, i, i, 1000+i, i%7, i/250, i%250))
}

// BenchmarkMarshal500Events encodes 500 Event contexts, each with its object,
// a filter result and a snapshot of the binding (the shape of a burst of
// watch events), and reports the size.
func BenchmarkMarshal500Events(b *testing.B) {
	const n = 500
	contexts := make([]Context, n)
	snapshot := make([]ObjectAndFilterResult, 0, 50)
	for i := range 50 {
		snapshot = append(snapshot, ObjectAndFilterResult{FilterResult: json.RawMessage(fmt.Sprintf(`{"name":"cm-%d"}`, i))})
	}
	for i := range n {
		item := ObjectAndFilterResult{Object: podJSON(i), FilterResult: json.RawMessage(`{"app":"web","tier":"frontend"}`)}
		contexts[i] = WatchEventContext("pods", "Modified", item, Snapshots{"configmaps": snapshot})
	}
	var size int
	b.ReportAllocs()
	for b.Loop() {
		size = len(Marshal(contexts))
	}
	b.ReportMetric(float64(size)/1024, "KiB/op")
}
