package e2e_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// Hooks written shell-operator style with the shell library of
// deploy/shell (issue 29): `source shell_lib.sh`, handler functions,
// `hook::run "$@"`, run by the built binary on the real cluster.

// shellLibDir is the repository's deploy/shell.
func shellLibDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "deploy", "shell")
}

// shellLibHook is a bash hook that sources the library, defines record
// (as scenario.RecordLib) and the handlers, and calls hook::run.
func shellLibHook(handlers string) string {
	return "#!/usr/bin/env bash\nsource '" + filepath.Join(shellLibDir(), "shell_lib.sh") + "'\n" + recordLib +
		handlers + "\nhook::run \"$@\"\n"
}

// shellLibEnv makes the hooks load this checkout's frameworks dir, whatever
// the machine has at /frameworks/shell.
func shellLibEnv() string {
	return "SHELL_LIB_FRAMEWORKS_DIR=" + filepath.Join(shellLibDir(), "frameworks", "shell")
}

// globalLibHook: YAML config from __config__; onStartup, beforeAll (only
// __main__ handles it), ConfigMaps shlib=global (::synchronization,
// ::added_or_modified, ::deleted), the same in group cm-group, a schedule
// every second.
const globalLibHook = `
__config__() {
  cat <<'EOF'
configVersion: v1
onStartup: 1
beforeAll: 1
kubernetes:
- name: cms
  kind: ConfigMap
  namespace: {nameSelector: {matchNames: [NS]}}
  labelSelector: {matchLabels: {shlib: global}}
- name: grouped
  group: cm-group
  kind: ConfigMap
  namespace: {nameSelector: {matchNames: [NS]}}
  labelSelector: {matchLabels: {shlib: global}}
  jqFilter: .data
schedule:
- name: every-second
  crontab: "*/1 * * * * *"
  queue: shlib-ticks
EOF
}
__on_startup() { record "onStartup $(context::get binding) $CONTEXT_LENGTH" global; }
__main__() { record "main $BINDING_CONTEXT_CURRENT_BINDING" global; }
__on_kubernetes::cms::synchronization() {
  record "sync $(context::jq -r '[.objects[].object.metadata.name] | join(",")')" global
}
__on_kubernetes::cms::added_or_modified() {
  record "$(context::get watchEvent) $(context::get object.metadata.name) v=$(context::get object.data.v) app=$(context::get 'object.metadata.labels."app.kubernetes.io/name"')" global
}
__on_kubernetes::cms::deleted() { record "Deleted $(context::get --required object.metadata.name)" global; }
__on_group::cm-group() {
  record "group $(context::get binding) $(context::jq -r '[.snapshots.grouped[].filterResult.v] | sort | join(",")')" group
}
__on_schedule::every-second() { record "tick $(context::get type) $BINDING_CONTEXT_CURRENT_BINDING" ticks; }`

// moduleLibHook: JSON config; onStartup, beforeHelm and afterHelm (both
// __main__), ConfigMaps shlib=module: ::synchronization, ::added, and the
// binding's own handler for the rest.
const moduleLibHook = `
__config__() {
  echo '{"configVersion":"v1","onStartup":1,"beforeHelm":1,"afterHelm":1,"kubernetes":[{"name":"module-cms","kind":"ConfigMap",` +
	`"namespace":{"nameSelector":{"matchNames":["NS"]}},"labelSelector":{"matchLabels":{"shlib":"module"}},"jqFilter":".data"}]}'
}
__on_startup() { record "onStartup $BINDING_CONTEXT_CURRENT_INDEX" module; }
__main__() { record "main $(context::get binding)" module; }
__on_kubernetes::module-cms::synchronization() {
  record "sync $(context::jq -r '[.objects[].filterResult.v] | join(",")')" module
}
__on_kubernetes::module-cms::added() { record "added $(context::get filterResult.v)" module; }
__on_kubernetes::module-cms() {
  if context::is_false filterResult.v; then exit 1; fi
  record "$(context::get type) $(context::get watchEvent) $(context::get filterResult.v)" module
}`

// putLibConfigMap creates ConfigMap name (labels shlib=owner and
// app.kubernetes.io/name=web, data v) or updates its data.
func putLibConfigMap(t *testing.T, client kubernetes.Interface, ns, name, owner, v string) {
	t.Helper()
	ctx := context.Background()
	cms := client.CoreV1().ConfigMaps(ns)
	cm, err := cms.Get(ctx, name, metav1.GetOptions{})
	if err == nil {
		cm.Data = map[string]string{"v": v}
		_, err = cms.Update(ctx, cm, metav1.UpdateOptions{})
	} else {
		cm = &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name,
			Labels: map[string]string{"shlib": owner, "app.kubernetes.io/name": "web"}}, Data: map[string]string{"v": v}}
		_, err = cms.Create(ctx, cm, metav1.CreateOptions{})
	}
	if err != nil {
		t.Fatal(err)
	}
}

// waitLine waits until record file name has line.
func waitLine(t *testing.T, root, name, line string) {
	t.Helper()
	waitFor(t, name+" line "+line, func() bool { return slices.Contains(lines(root, name), line) })
}

// expectLines checks a record file line by line.
func expectLines(t *testing.T, root, name string, want ...string) {
	t.Helper()
	if got := lines(root, name); !slices.Equal(got, want) {
		t.Fatalf("%s recorded\n%s\nwant\n%s", name, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// The operator runs the right handler of each hook for each binding
// context, and context::get reads the right values: start-up, a
// ConfigMap's Synchronization, Added, Modified and Deleted, a group, a
// schedule every second, beforeAll/beforeHelm/afterHelm through __main__.
func TestShellLibHooks(t *testing.T) {
	ns := kube.Namespace(t)
	client := kube.Client(t)
	putLibConfigMap(t, client, ns, "pre", "global", "one")
	putLibConfigMap(t, client, ns, "mod-pre", "module", "m1")
	root := tree(t, map[string]string{
		"global-hooks/lib-hook.sh":      shellLibHook(strings.ReplaceAll(globalLibHook, "NS", ns)),
		"modules/values.yaml":           "shlibEnabled: true\n",
		"modules/001-shlib/values.yaml": "shlib: {}\n",
		"modules/001-shlib/hooks/lib":   shellLibHook(strings.ReplaceAll(moduleLibHook, "NS", ns)),
	})
	op := startSpec(t, root, ns, shellLibEnv())
	op.waitReady(t)

	expectLines(t, root, "global", "onStartup onStartup 1", "sync pre", "main beforeAll")
	expectLines(t, root, "group", "group grouped one")
	expectLines(t, root, "module", "onStartup 0", "sync m1", "main beforeHelm", "main afterHelm")
	waitFor(t, "two ticks", func() bool { return len(lines(root, "ticks")) >= 2 })
	for _, tick := range lines(root, "ticks") {
		if tick != "tick Schedule every-second" {
			t.Fatalf("tick recorded %q", tick)
		}
	}

	putLibConfigMap(t, client, ns, "new", "global", "two")
	waitLine(t, root, "global", "Added new v=two app=web")
	waitLine(t, root, "group", "group grouped one,two")
	putLibConfigMap(t, client, ns, "new", "global", "three")
	waitLine(t, root, "global", "Modified new v=three app=web")
	waitLine(t, root, "group", "group grouped one,three")
	if err := client.CoreV1().ConfigMaps(ns).Delete(context.Background(), "new", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	waitLine(t, root, "global", "Deleted new")
	waitFor(t, "the group after the delete", func() bool { g := lines(root, "group"); return len(g) > 3 && g[len(g)-1] == "group grouped one" })

	putLibConfigMap(t, client, ns, "mod-new", "module", "m2")
	waitLine(t, root, "module", "added m2")
	putLibConfigMap(t, client, ns, "mod-new", "module", "m3")
	waitLine(t, root, "module", "Event Modified m3")
	if err := client.CoreV1().ConfigMaps(ns).Delete(context.Background(), "mod-new", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	waitLine(t, root, "module", "Event Deleted m3")

	expectLines(t, root, "global", "onStartup onStartup 1", "sync pre", "main beforeAll",
		"Added new v=two app=web", "Modified new v=three app=web", "Deleted new")
	if n := op.count("Traceback (most recent call last):", nil); n != 0 {
		t.Fatalf("%d tracebacks in the log\n%s", n, op.logText())
	}
}

// A hook whose context has no handler, and then a handler that fails,
// fail the task with the library's error lines in the hook's log; the
// operator retries and the run that works completes the converge.
func TestShellLibFailuresAreRetried(t *testing.T) {
	ns := kube.Namespace(t)
	config := `__config__() { echo '{"configVersion":"v1","beforeHelm":1}'; }`
	root := tree(t, map[string]string{
		"modules/values.yaml":           "flakyEnabled: true\n",
		"modules/001-flaky/values.yaml": "flaky: {}\n",
		"modules/001-flaky/hooks/lib":   shellLibHook(config),
	})
	op := startSpec(t, root, ns, shellLibEnv())
	op.waitRecord(t, "ERROR: Can't find any handler from the list: __main__ (binding context 0, binding beforeHelm)", map[string]any{"output": "stderr"})
	waitFailure(t, op, "exited with code 1; last stderr lines:\nERROR: Can't find any handler")

	failOnce := shellLibHook(config + `
__main__() {
  if [[ ! -e $RECORD_DIR/failed ]]; then
    record "failing $(context::get binding)" flaky
    touch "$RECORD_DIR/failed"
    false
    record never flaky
  fi
  record "ok $(context::get binding)" flaky
}`)
	hook := filepath.Join(root, "modules", "001-flaky", "hooks", "lib")
	if err := os.WriteFile(hook+".new", []byte(failOnce), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(hook+".new", hook); err != nil {
		t.Fatal(err)
	}
	op.waitReady(t)
	expectLines(t, root, "flaky", "failing beforeHelm", "ok beforeHelm")
	op.waitRecord(t, "Traceback (most recent call last):", map[string]any{"output": "stderr"})
	op.waitRecord(t, "ERROR: handler __main__ failed with exit status 1 (binding context 0, binding beforeHelm)", map[string]any{"output": "stderr"})
}
