// Command batchhook is a batch hook executable for tests: it answers the
// module-sdk protocol (`hook list`, `hook config`, `hook run N`, `hook
// ready`) as spec/UPSTREAM.md §1 describes, with three nested hooks: a
// schedule hook (0), a kubernetes hook on labelled ConfigMaps (1) and a
// readiness hook. Each run writes a values patch under the values key
// given at build time and a metric.
//
// Build variants with -ldflags "-X main.mode=MODE": broken (hooks[1] has a
// kubernetes binding without kind), hang (`hook list` never returns), shell
// (a compiled shell hook: answers --config, fails `hook list`), envcheck
// (`hook list` answers only in an empty environment and `hook config` only
// in a non-empty one, as addon-operator runs them), and
// -X main.valuesKey=KEY for the module's values key (default batchModule),
// -X main.namespace=NS to watch ConfigMaps in NS only.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"strings"
)

var (
	mode      string
	valuesKey = "batchModule"
	namespace string // -X main.namespace: watch ConfigMaps in it only
)

func main() {
	if mode == "shell" { // a compiled shell hook: --config, no `hook list`
		if len(os.Args) == 2 && os.Args[1] == "--config" {
			fmt.Println(`{"configVersion":"v1","onStartup":1}`)
			return
		}
		fail("not a batch hook")
	}
	if len(os.Args) < 3 || os.Args[1] != "hook" {
		fail("usage: batchhook hook list|config|run N|ready")
	}
	switch os.Args[2] {
	case "list":
		checkEnv(true)
		list()
	case "config":
		checkEnv(false)
		emit(config())
	case "run":
		if len(os.Args) < 4 {
			fail("hook run needs an index")
		}
		run(os.Args[3])
	case "ready":
		ready()
	default:
		fail("unknown command " + os.Args[2])
	}
}

// checkEnv fails in mode envcheck unless the environment is empty (want
// true) or not.
func checkEnv(empty bool) {
	if mode == "envcheck" && (len(os.Environ()) == 0) != empty {
		fail(fmt.Sprintf("environment of %d variables, want it empty: %v", len(os.Environ()), empty))
	}
}

func list() {
	if mode == "hang" {
		wait := make(chan os.Signal, 1)
		signal.Notify(wait, os.Interrupt)
		<-wait // until killed
	}
	fmt.Println("Found 2 items:")
	fmt.Println("0 - schedule")
	fmt.Println("1 - configmaps")
}

func config() map[string]any {
	kube := map[string]any{
		"name": "configmaps", "apiVersion": "v1", "kind": "ConfigMap",
		"labelSelector":                map[string]any{"matchLabels": map[string]string{"batch": "yes"}},
		"jqFilter":                     ".metadata.name",
		"executeHookOnEvent":           true,
		"keepFullObjectsInMemory":      false,
		"nameSelector":                 nil,
		"executeHookOnSynchronization": true,
	}
	if namespace != "" {
		kube["namespace"] = map[string]any{"nameSelector": map[string]any{"matchNames": []string{namespace}}}
	}
	if mode == "broken" {
		delete(kube, "kind")
	}
	return map[string]any{
		"version": "v1",
		"hooks": []any{
			map[string]any{"configVersion": "v1", "metadata": map[string]any{"name": "schedule", "path": "hooks/schedule"},
				"onStartup": 1,
				"schedule":  []any{map[string]any{"name": "every-second", "crontab": "* * * * * *"}}},
			map[string]any{"configVersion": "v1", "metadata": map[string]any{"name": "configmaps", "path": "hooks/configmaps"},
				"kubernetes": []any{kube}},
		},
		"readiness": map[string]any{"configVersion": "v1", "metadata": map[string]any{"name": "readiness"},
			"schedule": []any{map[string]any{"name": "default-module-moduleReadinessSchedule", "crontab": "*/2 * * * * *", "queue": "main"}}},
	}
}

// run is one nested hook: it patches values with what it saw and counts
// the run in a metric.
func run(key string) {
	var contexts []map[string]any
	readJSON(os.Getenv("BINDING_CONTEXT_PATH"), &contexts)
	patch := []any{}
	switch key {
	case "0":
		patch = append(patch, add("/"+valuesKey+"/scheduleBinding", contexts[len(contexts)-1]["binding"]),
			add("/"+valuesKey+"/moduleName", os.Getenv("MODULE_NAME")),
			add("/"+valuesKey+"/applicationName", envState("APPLICATION_NAME")))
	case "1":
		last := contexts[len(contexts)-1]
		patch = append(patch, add("/"+valuesKey+"/kubeContextType", last["type"]),
			add("/"+valuesKey+"/configMaps", names(last)))
		publish(names(last))
	default:
		fail("no hook " + key)
	}
	writeJSON(os.Getenv("VALUES_JSON_PATCH_PATH"), patch)
	writeJSON(os.Getenv("METRICS_PATH"), map[string]any{"name": "batch_test_runs_total", "action": "add",
		"value": 1, "labels": map[string]string{"key": key}})
}

// publish writes the names seen to ConfigMap batch-seen through an object
// patch (UPSTREAM §1.9), when the hook knows its namespace.
func publish(seen []string) {
	if namespace == "" {
		return
	}
	writeJSON(os.Getenv("KUBERNETES_PATCH_PATH"), map[string]any{"operation": "CreateOrUpdate",
		"object": map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
			"metadata": map[string]any{"name": "batch-seen", "namespace": namespace},
			"data":     map[string]any{"names": strings.Join(seen, ",")}}})
}

// ready is the readiness hook; it fails while the file that
// $BATCH_READY_FAIL names exists.
func ready() {
	if gate := os.Getenv("BATCH_READY_FAIL"); gate != "" {
		if _, err := os.Stat(gate); err == nil {
			fail("not ready: " + gate + " exists")
		}
	}
	writeJSON(os.Getenv("VALUES_JSON_PATCH_PATH"), []any{add("/"+valuesKey+"/ready", true)})
	writeJSON(os.Getenv("METRICS_PATH"), map[string]any{"name": "batch_test_ready", "action": "set", "value": 1})
}

// names lists the filter results of the configmaps snapshot of a Group
// context.
func names(ctx map[string]any) []string {
	out := []string{}
	snaps, _ := ctx["snapshots"].(map[string]any)
	items, _ := snaps["configmaps"].([]any)
	for _, it := range items {
		obj, _ := it.(map[string]any)
		if name, ok := obj["filterResult"].(string); ok {
			out = append(out, name)
		}
	}
	return out
}

func add(path string, value any) map[string]any {
	return map[string]any{"op": "add", "path": path, "value": value}
}

// envState says whether a variable is set and empty, as the protocol wants
// APPLICATION_NAME.
func envState(name string) string {
	v, ok := os.LookupEnv(name)
	switch {
	case !ok:
		return "unset"
	case v == "":
		return "empty"
	}
	return v
}

func readJSON(path string, v any) {
	data, err := os.ReadFile(path)
	if err != nil {
		fail(err.Error())
	}
	if err := json.Unmarshal(data, v); err != nil {
		fail("binding context: " + err.Error())
	}
}

func writeJSON(path string, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		fail(err.Error())
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		fail(err.Error())
	}
}

func emit(v any) {
	data, err := json.Marshal(v)
	if err != nil {
		fail(err.Error())
	}
	fmt.Println(string(data))
}

// fail exits 1 with the module-sdk error JSON on stderr.
func fail(msg string) {
	data, _ := json.Marshal(map[string]string{"message": "execute: " + msg})
	fmt.Fprintln(os.Stderr, string(data))
	os.Exit(1)
}
