package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"

	"sigs.k8s.io/yaml"

	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/debugapi"
	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/whatif"
)

// Exit codes of `plan`, for a CI step before `kubectl apply`.
const (
	planNoChange = 0
	planInvalid  = 1 // also: the plan could not be computed
	planChanges  = 2
)

// planCLI runs `plan -f FILE` / `plan --set key=value` against the
// operator's socket and returns the exit code.
func planCLI(ctx context.Context, args []string, lookup func(string) (string, bool), stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("plan", flag.ContinueOnError)
	fs.SetOutput(stderr)
	file := fs.String("f", "", "the candidate ConfigMap and/or ModuleConfig manifests (YAML or JSON; - for stdin); without a ConfigMap, the live one")
	output := fs.String("o", "text", "output: text, json or yaml")
	socket := fs.String("debug-unix-socket", socketPath(lookup), "the operator's debug socket")
	var req whatif.Request
	fs.Func("set", "key=value: edit a ConfigMap data key, or a field in one (module.replicas=3); repeatable", func(s string) error {
		req.Set = append(req.Set, s)
		return nil
	})
	if err := fs.Parse(args); err != nil {
		return planInvalid
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "addon-operator plan: unexpected argument %q (use -f FILE or --set key=value)\n", fs.Arg(0))
		return planInvalid
	}
	if *output != "text" && *output != "json" && *output != "yaml" {
		fmt.Fprintf(stderr, "addon-operator plan: -o %q: want text, json or yaml\n", *output)
		return planInvalid
	}
	plan, body, err := askPlan(ctx, debugapi.NewClient(*socket), *file, req)
	if err == nil {
		err = printPlan(stdout, *output, plan, body)
	}
	if err != nil {
		fmt.Fprintln(stderr, "addon-operator plan:", err)
		return planInvalid
	}
	switch {
	case !plan.Valid:
		return planInvalid
	case plan.Changed:
		return planChanges
	}
	return planNoChange
}

func askPlan(ctx context.Context, client *debugapi.Client, file string, req whatif.Request) (whatif.Plan, []byte, error) {
	if file != "" {
		if err := readPlanFile(file, &req); err != nil {
			return whatif.Plan{}, nil, err
		}
	}
	in, err := json.Marshal(req)
	if err != nil {
		return whatif.Plan{}, nil, err
	}
	body, err := client.Post(ctx, "/plan", in)
	if err != nil {
		return whatif.Plan{}, nil, err
	}
	var plan whatif.Plan
	if err := json.Unmarshal(body, &plan); err != nil {
		return whatif.Plan{}, nil, fmt.Errorf("read the plan: %w", err)
	}
	return plan, body, nil
}

// readConfigMapFile reads a ConfigMap manifest's data; an empty data is an
// empty ConfigMap, never "the live one".
func readConfigMapFile(file string) (map[string]string, error) {
	var raw []byte
	var err error
	if file == "-" {
		raw, err = io.ReadAll(os.Stdin)
	} else {
		raw, err = os.ReadFile(file)
	}
	if err != nil {
		return nil, fmt.Errorf("-f %s: %w", file, err)
	}
	var cm struct {
		Kind string            `json:"kind"`
		Data map[string]string `json:"data"`
	}
	if err := yaml.Unmarshal(raw, &cm); err != nil {
		return nil, fmt.Errorf("-f %s: not a ConfigMap manifest: %w", file, err)
	}
	if cm.Kind != "ConfigMap" {
		return nil, fmt.Errorf("-f %s: kind %q: want a ConfigMap manifest", file, cm.Kind)
	}
	if cm.Data == nil {
		cm.Data = map[string]string{}
	}
	return cm.Data, nil
}

func printPlan(w io.Writer, output string, plan whatif.Plan, body []byte) error {
	switch output {
	case "json":
		_, err := w.Write(body)
		return err
	case "yaml":
		return textYAML(w, body)
	case "text":
		return textPlan(w, plan, isTerminal(w))
	}
	return fmt.Errorf("-o %q: want text, json or yaml", output)
}

// isTerminal tells whether w is a terminal (the summary is coloured then).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}
