package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/yaml"

	"github.com/addon-actors/addon-operator/chartrun"
	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/rbacgen"
	"github.com/addon-actors/addon-operator/hookexec"
)

// Exit codes of `rbac --diff`, as `plan`'s: 0 nothing to add, 2 rules to
// add, 1 an error.
const (
	rbacNothingMissing = planNoChange
	rbacError          = planInvalid
	rbacMissing        = planChanges
)

// rbacFlags are the flags of `addon-operator rbac`.
type rbacFlags struct {
	src            rbacSources
	sub            rbacgen.Subject
	configFile     string
	kubeconfig     string
	kubeContext    string
	output         string
	diff, diffFile string
}

func parseRBACFlags(args []string, lookup func(string) (string, bool), stderr io.Writer) (rbacFlags, error) {
	var f rbacFlags
	fs := flag.NewFlagSet("rbac", flag.ContinueOnError)
	fs.SetOutput(stderr)
	modules := fs.String("modules-dir", firstEnv(lookup, "", "MODULES_DIR", "ADDON_OPERATOR_MODULES_DIR"), "the modules dirs (colon-separated)")
	fs.StringVar(&f.src.globalHooksDir, "global-hooks-dir", firstEnv(lookup, "", "GLOBAL_HOOKS_DIR", "ADDON_OPERATOR_GLOBAL_HOOKS_DIR"), "the global hooks dir")
	fs.StringVar(&f.src.namespace, "namespace", firstEnv(lookup, "addon-operator", "ADDON_OPERATOR_NAMESPACE"), "the operator's namespace (its ConfigMap, Lease, helm's Secrets, the releases)")
	fs.StringVar(&f.sub.ServiceAccount, "service-account", "addon-operator", "the operator's ServiceAccount, which the bindings name (the chart's: its release name)")
	fs.StringVar(&f.configFile, "f", "", "the ConfigMap manifest whose values and enabled keys to use (- for stdin); without it, the values files only")
	fs.BoolVar(&f.src.allModules, "all-modules", false, "every module, enabled or not (for modules that global hooks enable)")
	fs.StringVar(&f.kubeconfig, "kubeconfig", firstEnv(lookup, "", "KUBE_CONFIG", "KUBECONFIG"), "a kubeconfig: kinds from the cluster's discovery, charts rendered with its capabilities; without it, offline (built-in kinds and the modules' CRDs)")
	fs.StringVar(&f.kubeContext, "context", firstEnv(lookup, "", "KUBE_CONTEXT"), "the kubeconfig's context")
	fs.StringVar(&f.output, "o", "yaml", "output: yaml (for kubectl apply -f -), json, or values (rbac.rules and rbac.namespaceRules for the chart's values)")
	fs.StringVar(&f.diffFile, "diff-file", "", "print only the rules that the ClusterRoles and Roles in this file (YAML or JSON) do not grant; exit 2 if any")
	diff := fs.Bool("diff", false, "print only the rules that the cluster does not grant the ServiceAccount now (its bindings' roles); exit 2 if any")
	if err := fs.Parse(args); err != nil {
		return f, err
	}
	if fs.NArg() > 0 {
		return f, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if *modules == "" {
		return f, fmt.Errorf("no modules dir: give --modules-dir or MODULES_DIR")
	}
	if f.output != "yaml" && f.output != "json" && f.output != "values" {
		return f, fmt.Errorf("-o %q: want yaml, json or values", f.output)
	}
	if *diff {
		f.diff = "cluster"
	}
	f.src.modulesDirs = filepath.SplitList(*modules)
	f.sub.Namespace = f.src.namespace
	return f, nil
}

func firstEnv(lookup func(string) (string, bool), def string, names ...string) string {
	for _, n := range names {
		if v, ok := lookup(n); ok && v != "" {
			return v
		}
	}
	return def
}

// rbacCLI runs `addon-operator rbac` and returns the exit code.
func rbacCLI(ctx context.Context, args []string, lookup func(string) (string, bool), stdout, stderr io.Writer) int {
	f, err := parseRBACFlags(args, lookup, stderr)
	if err == nil {
		var code int
		if code, err = runRBAC(ctx, f, stdout, stderr); err == nil {
			return code
		}
	}
	if err != flag.ErrHelp {
		fmt.Fprintln(stderr, "addon-operator rbac:", err)
	}
	return rbacError
}

func runRBAC(ctx context.Context, f rbacFlags, stdout, stderr io.Writer) (int, error) {
	var cfg *rest.Config
	if f.kubeconfig != "" {
		rules := &clientcmd.ClientConfigLoadingRules{ExplicitPath: f.kubeconfig}
		overrides := &clientcmd.ConfigOverrides{CurrentContext: f.kubeContext}
		c, err := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, overrides).ClientConfig()
		if err != nil {
			return rbacError, fmt.Errorf("kubeconfig %s: %w", f.kubeconfig, err)
		}
		cfg = c
	} else if f.diff != "" {
		return rbacError, fmt.Errorf("--diff reads the cluster: give --kubeconfig (or --diff-file)")
	}
	needed, err := neededGrants(ctx, f, cfg, stderr)
	if err != nil {
		return rbacError, err
	}
	rules := needed.Merge()
	if f.diff == "" && f.diffFile == "" {
		return rbacNothingMissing, printRBAC(stdout, f.output, rules, f.sub)
	}
	granted, err := grantedRules(ctx, f, cfg)
	if err != nil {
		return rbacError, err
	}
	missing := rbacgen.Missing(needed, granted)
	if missing.Empty() {
		fmt.Fprintln(stderr, "addon-operator rbac: nothing to add")
		return rbacNothingMissing, nil
	}
	return rbacMissing, printRBAC(stdout, f.output, missing, f.sub)
}

// neededGrants gathers what the modules declare and computes the grants,
// with the cluster's discovery and rendering when cfg is set.
func neededGrants(ctx context.Context, f rbacFlags, cfg *rest.Config, stderr io.Writer) (rbacgen.Set, error) {
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	src := f.src
	src.hooks = hookexec.NewRunner(hookexec.Options{Logger: log})
	if f.configFile != "" {
		data, err := readConfigMapFile(f.configFile)
		if err != nil {
			return rbacgen.Set{}, err
		}
		src.config = data
	}
	var mapper rbacgen.Mapper = rbacgen.BuiltIn()
	src.render = func(_ context.Context, release, dir string, vals map[string]any) (string, error) {
		return chartrun.RenderOffline(release, src.namespace, dir, vals)
	}
	if cfg != nil {
		releaser, err := chartrun.NewReleaser(cfg, src.namespace, chartrun.Options{Log: log})
		if err != nil {
			return rbacgen.Set{}, err
		}
		src.render = releaser.Render
		if mapper, err = clusterMapper(cfg); err != nil {
			return rbacgen.Set{}, err
		}
	}
	in, crdKinds, err := gatherRBAC(ctx, src)
	if err != nil {
		return rbacgen.Set{}, err
	}
	set, err := rbacgen.Compute(in, rbacgen.Chain{mapper, crdKinds})
	if errors.Is(err, rbacgen.ErrUnknownKind) && cfg == nil {
		err = fmt.Errorf("%w\n(offline, kinds are the built-in ones and the modules' crds/: give --kubeconfig to ask the cluster)", err)
	}
	return set, err
}

// printRBAC prints the rules as manifests (YAML documents, or a JSON v1
// List), or as the chart's values.
func printRBAC(w io.Writer, output string, rules rbacgen.Rules, sub rbacgen.Subject) error {
	if output == "values" {
		body, err := yaml.Marshal(map[string]any{"rbac": map[string]any{"rules": nonNil(rules.Cluster),
			"namespaceRules": rules.Namespaced}})
		if err != nil {
			return err
		}
		_, err = w.Write(body)
		return err
	}
	objects := rbacgen.Manifests(rules, sub)
	if output == "json" {
		body, err := json.MarshalIndent(map[string]any{"apiVersion": "v1", "kind": "List", "items": objects}, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(w, "%s\n", body)
		return err
	}
	docs := make([]string, 0, len(objects))
	for _, o := range objects {
		body, err := yaml.Marshal(o)
		if err != nil {
			return err
		}
		docs = append(docs, strings.ReplaceAll(string(body), "  creationTimestamp: null\n", ""))
	}
	_, err := io.WriteString(w, strings.Join(docs, "---\n"))
	return err
}

func nonNil(rules []rbacgen.Rule) []rbacgen.Rule {
	if rules == nil {
		return []rbacgen.Rule{}
	}
	return rules
}

// readManifestFile reads a file (- for stdin).
func readManifestFile(file string) ([]byte, error) {
	if file == "-" {
		return io.ReadAll(os.Stdin)
	}
	return os.ReadFile(file)
}
