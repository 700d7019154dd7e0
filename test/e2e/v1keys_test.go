package e2e_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/addon-actors/addon-operator/test/scenario"
)

// watchEventConfig is a v1 kubernetes binding written with the older keys
// shell-operator still accepts: watchEvent (the alias of
// executeHookOnEvent) and resynchronizationPeriod (unused).
func watchEventConfig(ns, extra string) string {
	return `{"configVersion":"v1",` + extra + `"kubernetes":[{"name":"cms","apiVersion":"v1","kind":"ConfigMap",` +
		`"watchEvent":["Added"],"resynchronizationPeriod":"10s","executeHookOnSynchronization":false,` +
		`"keepFullObjectsInMemory":false,"jqFilter":"[.metadata.name, .data]",` +
		`"namespace":{"nameSelector":{"matchNames":["` + ns + `"]}},"labelSelector":{"matchLabels":{"v1keys":"yes"}}}]}`
}

// A global and a module hook bound with watchEvent: ["Added"] and
// resynchronizationPeriod load, the operator becomes ready, and an Added
// ConfigMap runs both with its Event context; a Modified one runs neither.
// The global hook's validating binding is served from start-up: its
// configuration <prefix>-global is in the cluster once the operator is
// ready.
func TestV1WatchEventAndResyncPeriodAreAccepted(t *testing.T) {
	ns := kube.Namespace(t)
	body := `record "$(cat $BINDING_CONTEXT_PATH)" `
	root := tree(t, map[string]string{
		"global-hooks/watch":              hook(watchEventConfig(ns, validatingKey("v.example.com", ns)), body+"global"),
		"modules/values.yaml":             "watcherEnabled: true\n",
		"modules/001-watcher/hooks/watch": hook(watchEventConfig(ns, ""), body+"module"),
	})
	op := startSpec(t, root, ns, webhookEnv(t, ns, "global")...)
	op.waitReady(t)
	client := kube.Client(t)
	if !configurationExists(t, client, ns+"-global") {
		t.Fatalf("no validating configuration %s-global\n%s", ns, op.logText())
	}

	cms := client.CoreV1().ConfigMaps(ns)
	first := createLabelled(t, cms, "first")
	waitContexts(t, op, root, 1)
	first.Data = map[string]string{"changed": "yes"}
	if _, err := cms.Update(context.Background(), first, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	// The Modified event of first (its filter result changes) comes before
	// the Added of second on the one watch: had it run the hooks, its
	// context would come in between.
	second := createLabelled(t, cms, "second")
	waitContexts(t, op, root, 2)
	for _, file := range []string{"global", "module"} {
		got := contexts(t, root, file)
		if len(got) != 2 {
			t.Fatalf("%s hook ran %d times, want 2 (Added first, Added second): %s", file, len(got), got)
		}
		for i, cm := range []*corev1.ConfigMap{first, second} {
			scenario.JSONEqual(t, file+" hook context "+cm.Name, string(got[i]), addedContext(cm))
		}
	}
}

// validatingKey is a kubernetesValidating key (with its comma) of one
// binding named name, on Pod creation in ns.
func validatingKey(name, ns string) string {
	return `"kubernetesValidating":[{"name":"` + name + `",` + inNamespace(ns) + `,"rules":[{"apiGroups":[""],"apiVersions":["v1"],` +
		`"resources":["pods"],"operations":["CREATE"]}]}],`
}

// addedContext is the Added context of cm: with keepFullObjectsInMemory
// false the Event carries no object (UPSTREAM §8.2), only the filter
// result (the name and the data, none yet).
func addedContext(cm *corev1.ConfigMap) string {
	return `[{"binding":"cms","type":"Event","watchEvent":"Added","filterResult":["` + cm.Name + `",null]}]`
}

// A kubernetes binding with mode: the global hook's --config is refused
// naming the field, and start-up stops.
func TestV1ModeStopsStartup(t *testing.T) {
	ns := kube.Namespace(t)
	config := `{"configVersion":"v1","kubernetes":[{"kind":"ConfigMap","mode":"Incremental"}]}`
	root := tree(t, map[string]string{"global-hooks/moded": hook(config, "record ran moded")})
	op := startSpec(t, root, ns)
	if code := op.waitExit(t, 60*time.Second); code == 0 {
		t.Fatalf("exit code 0 with mode in a binding\n%s", op.logText())
	}
	logs := op.logText()
	for _, want := range []string{"global-hooks/moded", "kubernetes[0].mode: unknown field: mode is not allowed in configVersion v1"} {
		if !strings.Contains(logs, want) {
			t.Fatalf("the error does not name %q\n%s", want, logs)
		}
	}
}

// A validating binding whose name is not fully qualified: the global
// hook's --config is refused naming the field, and start-up stops.
func TestV1BadValidatingBindingStopsStartup(t *testing.T) {
	ns := kube.Namespace(t)
	root := tree(t, map[string]string{"global-hooks/policy": hook(watchEventConfig(ns, validatingKey("policy", ns)), "record ran policy")})
	op := startSpec(t, root, ns)
	if code := op.waitExit(t, 60*time.Second); code == 0 {
		t.Fatalf("exit code 0 with a bad validating binding\n%s", op.logText())
	}
	logs := op.logText()
	for _, want := range []string{"global-hooks/policy", `kubernetesValidating[0].name: bad name: \"policy\": want a fully-qualified name`} {
		if !strings.Contains(logs, want) {
			t.Fatalf("the error does not name %q\n%s", want, logs)
		}
	}
}

func createLabelled(t *testing.T, cms interface {
	Create(context.Context, *corev1.ConfigMap, metav1.CreateOptions) (*corev1.ConfigMap, error)
}, name string) *corev1.ConfigMap {
	t.Helper()
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"v1keys": "yes"}}}
	created, err := cms.Create(context.Background(), cm, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return created
}

// contexts reads the binding contexts a hook recorded: one JSON array per
// run (an array may span lines).
func contexts(t *testing.T, root, file string) []json.RawMessage {
	t.Helper()
	out, err := readContexts(root, file)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func readContexts(root, file string) ([]json.RawMessage, error) {
	data, err := os.ReadFile(filepath.Join(root, "record", file))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		var ctx json.RawMessage
		if err := dec.Decode(&ctx); errors.Is(err, io.EOF) {
			return out, nil
		} else if err != nil {
			return nil, fmt.Errorf("record %s: %w in %s", file, err, data)
		}
		out = append(out, ctx)
	}
}

// waitContexts waits until both hooks have recorded n contexts; a record
// being written counts once it is whole.
func waitContexts(t *testing.T, op *operator, root string, n int) {
	t.Helper()
	op.waitUntil(t, "both hooks ran", func() bool {
		global, errG := readContexts(root, "global")
		module, errM := readContexts(root, "module")
		return errG == nil && errM == nil && len(global) >= n && len(module) >= n
	})
}
