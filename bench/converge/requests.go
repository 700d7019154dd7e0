package main

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/addon-actors/addon-operator/test/cluster"
)

// requestCounts are kube-apiserver's apiserver_request_total summed by
// "VERB resource" (subresources after a slash).
type requestCounts map[string]float64

// apiRequests reads the apiserver's request counters from its /metrics.
func apiRequests(ctx context.Context, kubeconfig string) (requestCounts, error) {
	client, err := cluster.Clientset(kubeconfig)
	if err != nil {
		return nil, err
	}
	body, err := client.CoreV1().RESTClient().Get().AbsPath("/metrics").DoRaw(ctx)
	if err != nil {
		return nil, fmt.Errorf("apiserver /metrics: %w", err)
	}
	return parseRequestCounts(string(body)), nil
}

// parseRequestCounts reads the apiserver_request_total samples of a
// Prometheus text exposition.
func parseRequestCounts(text string) requestCounts {
	counts := requestCounts{}
	for _, line := range strings.Split(text, "\n") {
		rest, ok := strings.CutPrefix(line, "apiserver_request_total{")
		if !ok {
			continue
		}
		end := strings.LastIndexByte(rest, '}')
		if end < 0 {
			continue
		}
		value, err := strconv.ParseFloat(strings.TrimSpace(rest[end+1:]), 64)
		if err != nil {
			continue
		}
		labels := labelsOf(rest[:end])
		key := labels["verb"] + " " + labels["resource"]
		if sub := labels["subresource"]; sub != "" {
			key += "/" + sub
		}
		counts[key] += value
	}
	return counts
}

// labelsOf splits `a="x",b="y"` (values without commas or quotes, as the
// apiserver's request labels are).
func labelsOf(s string) map[string]string {
	labels := map[string]string{}
	for _, pair := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(pair, "=")
		if ok {
			labels[k] = strings.Trim(v, `"`)
		}
	}
	return labels
}

// since is what was counted after before, without the zeros.
func (c requestCounts) since(before requestCounts) requestCounts {
	diff := requestCounts{}
	for k, v := range c {
		if d := v - before[k]; d > 0 {
			diff[k] = d
		}
	}
	return diff
}

// line prints the total per module and the biggest kinds of request.
func (c requestCounts) line(modules int) string {
	total := 0.0
	for _, v := range c {
		total += v
	}
	keys := slices.SortedFunc(maps.Keys(c), func(a, b string) int {
		if c[a] != c[b] {
			return int(c[b] - c[a])
		}
		return strings.Compare(a, b)
	})
	parts := make([]string, 0, 6)
	for _, k := range keys[:min(len(keys), 6)] {
		parts = append(parts, fmt.Sprintf("%s %.1f", k, c[k]/float64(max(modules, 1))))
	}
	return fmt.Sprintf("apiserver requests %.0f (%.1f/module: %s)", total, total/float64(max(modules, 1)), strings.Join(parts, ", "))
}

// objectsLine prints the writes of Module objects (modules and their
// status) and of Events, in all and per module.
func (c requestCounts) objectsLine(modules int) string {
	var writes, events float64
	for k, v := range c {
		verb, resource, _ := strings.Cut(k, " ")
		if verb == "GET" || verb == "LIST" || verb == "WATCH" {
			continue
		}
		switch {
		case resource == "modules" || strings.HasPrefix(resource, "modules/"):
			writes += v
		case resource == "events":
			events += v
		}
	}
	per := float64(max(modules, 1))
	return fmt.Sprintf("Module object writes %.0f (%.2f/module), Event writes %.0f (%.2f/module)",
		writes, writes/per, events, events/per)
}
