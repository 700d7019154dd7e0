package main

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/addon-actors/addon-operator/test/cluster"
)

const hook = `#!/usr/bin/env bash
if [[ ${1:-} == --config ]]; then echo '{"configVersion":"v1","beforeHelm":1,"afterHelm":1}'; exit 0; fi
echo '[{"op":"add","path":"/%s/fromHook","value":"x"}]' > "$VALUES_JSON_PATCH_PATH"
`

const template = `apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ .Release.Name }}-%d
data:
  fromHook: {{ .Values.%s.fromHook | quote }}
`

// generate writes modules/NNN-mN with a hook and a chart of 2 ConfigMaps;
// NNN is the module's weight (weightOf). Without hooks the modules are
// charts only; with roots > 0 the modules after the first roots have a
// module.yaml requiring one of them (requiredRoot). The last disabled
// modules are disabled in the modules' values.yaml.
func generate(work string, n, weights, roots int, hooks bool, disabled int) error {
	enabled := ""
	for i := range n {
		dir := filepath.Join(work, "modules", fmt.Sprintf("%03d-m%d", weightOf(i, n, weights), i))
		if err := cluster.WriteTree(dir, moduleFiles(i, requiredRoot(i, roots), hooks), 0o755); err != nil {
			return err
		}
		enabled += fmt.Sprintf("m%dEnabled: %t\n", i, i < n-disabled)
	}
	return cluster.WriteTree(filepath.Join(work, "modules"), map[string]string{"values.yaml": enabled}, 0o755)
}

// moduleFiles are the files of module m<i> by path in its dir; root is
// the module it requires (-1: none, no module.yaml).
func moduleFiles(i, root int, hooks bool) map[string]string {
	key := fmt.Sprintf("m%d", i)
	files := map[string]string{
		"Chart.yaml":         fmt.Sprintf("apiVersion: v2\nname: %s\nversion: 0.1.0\n", key),
		"values.yaml":        key + ":\n  replicas: 1\n",
		"templates/a.yaml":   fmt.Sprintf(template, 0, key),
		"templates/b.yaml":   fmt.Sprintf(template, 1, key),
		"hooks/values-patch": fmt.Sprintf(hook, key),
	}
	if !hooks {
		delete(files, "hooks/values-patch")
	}
	if root >= 0 {
		files["module.yaml"] = moduleYAML(root)
	}
	return files
}

func createNamespace(ctx context.Context, kubeconfig, name string) error {
	client, err := cluster.Clientset(kubeconfig)
	if err != nil {
		return err
	}
	_, err = client.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{})
	if apierrors.IsAlreadyExists(err) {
		return nil
	}
	return err
}

// hookCost runs the first module's hook n times with --config, as
// discovery does, and returns its mean CPU time (user+sys of the hook's
// process) and wall time per run: what the machine charges for a hook
// before the operator does anything.
func hookCost(work string, n int) (cpu, wall time.Duration, err error) {
	dir := filepath.Join(work, "modules")
	hooks, err := filepath.Glob(filepath.Join(dir, "*", "hooks", "values-patch"))
	if err != nil || len(hooks) == 0 {
		return 0, 0, err
	}
	for range n {
		cmd := exec.Command(hooks[0], "--config")
		start := time.Now()
		if err := cmd.Run(); err != nil {
			return 0, 0, fmt.Errorf("%s --config: %w", hooks[0], err)
		}
		wall += time.Since(start)
		cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	return cpu / time.Duration(n), wall / time.Duration(n), nil
}
