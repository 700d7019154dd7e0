package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"k8s.io/client-go/kubernetes"

	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/app"
	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/settings"
	"github.com/addon-actors/addon-operator/moduleconfig"
	"github.com/addon-actors/addon-operator/values/configmap"
)

// configFlags are the flags of `addon-operator config export`.
type configFlags struct {
	file, kubeconfig, kubeContext string
	namespace, configMap          string
}

// configCLI runs `config export` and returns the exit code.
func configCLI(ctx context.Context, args []string, lookup func(string) (string, bool), stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "export" {
		fmt.Fprintln(stderr, "addon-operator config: want `config export [-f configmap.yaml | --kubeconfig FILE]`")
		return 2
	}
	fs := flag.NewFlagSet("config export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f configFlags
	fs.StringVar(&f.file, "f", "", "a ConfigMap manifest to export (- for stdin); without it, the operator's ConfigMap in the cluster")
	fs.StringVar(&f.kubeconfig, "kubeconfig", firstEnv(lookup, "", "KUBE_CONFIG", "KUBECONFIG"), "a kubeconfig; without it and -f, the in-cluster config")
	fs.StringVar(&f.kubeContext, "context", firstEnv(lookup, "", "KUBE_CONTEXT"), "the kubeconfig's context")
	fs.StringVar(&f.namespace, "namespace", firstEnv(lookup, "addon-operator", "ADDON_OPERATOR_NAMESPACE"), "the ConfigMap's namespace")
	fs.StringVar(&f.configMap, "config-map", firstEnv(lookup, "addon-operator", "ADDON_OPERATOR_CONFIG_MAP"), "the ConfigMap's name")
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "addon-operator config export: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if err := exportConfig(ctx, f, stdout, stderr); err != nil {
		fmt.Fprintln(stderr, "addon-operator config export:", err)
		return 1
	}
	return 0
}

// exportConfig prints the ModuleConfigs equal to the ConfigMap, and on
// stderr what could not be exported (it stays in the ConfigMap).
func exportConfig(ctx context.Context, f configFlags, stdout, stderr io.Writer) error {
	data, err := configData(ctx, f)
	if err != nil {
		return err
	}
	sections, err := configmap.Parse(data)
	if err != nil {
		return fmt.Errorf("the ConfigMap is not valid, fix it first: %w", err)
	}
	objects, warnings := moduleconfig.Export(sections)
	for _, w := range warnings {
		fmt.Fprintln(stderr, "warning:", w)
	}
	text, err := moduleconfig.Marshal(objects)
	if err != nil {
		return err
	}
	_, err = stdout.Write(text)
	return err
}

// configData reads the ConfigMap's data from -f or the cluster; a missing
// ConfigMap is an empty config, as the operator takes it.
func configData(ctx context.Context, f configFlags) (map[string]string, error) {
	if f.file != "" {
		return readConfigMapFile(f.file)
	}
	cfg, err := restConfig(settings.Settings{KubeConfig: f.kubeconfig, KubeContext: f.kubeContext})
	if err != nil {
		return nil, err
	}
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	return app.LiveConfig(ctx, client, f.namespace, f.configMap)
}
