package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/addon-actors/addon-operator/chartrun"
	"github.com/addon-actors/addon-operator/chartrun/crds"
	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/rbacgen"
	"github.com/addon-actors/addon-operator/hook/bindings"
	"github.com/addon-actors/addon-operator/hookexec"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/values"
	"github.com/addon-actors/addon-operator/values/configmap"
	"github.com/addon-actors/addon-operator/values/schema"
)

// renderFunc renders a module's chart with its values (through the
// cluster, or offline).
type renderFunc func(ctx context.Context, release, dir string, vals map[string]any) (string, error)

// hookConfigs finds hooks and reads their binding configuration.
type hookConfigs interface {
	DiscoverHooks(ctx context.Context, root string, owner hookexec.Owner) ([]hookexec.Hook, error)
	Config(ctx context.Context, hook hookexec.Hook, scope bindings.Scope) (*bindings.Config, error)
}

// rbacSources are where `addon-operator rbac` reads what the modules
// declare.
type rbacSources struct {
	modulesDirs    []string
	globalHooksDir string
	namespace      string
	config         map[string]string // the ConfigMap's data (-f), nil for none
	allModules     bool
	render         renderFunc
	hooks          hookConfigs
}

// gatherRBAC reads the modules and global hooks into rbacgen's input, and
// the kinds their crds/ files define.
func gatherRBAC(ctx context.Context, src rbacSources) (rbacgen.Input, rbacgen.Table, error) {
	in := rbacgen.Input{Namespace: src.namespace}
	crdKinds := rbacgen.Table{}
	common, err := layout.ReadCommonValues(src.modulesDirs)
	if err != nil {
		return in, nil, err
	}
	defs, errs := layout.Scan(src.modulesDirs, common)
	if len(errs) > 0 {
		return in, nil, errors.Join(errs...)
	}
	sections, err := configmap.Parse(src.config)
	if err != nil {
		return in, nil, fmt.Errorf("-f: %w", err)
	}
	global, err := globalValues(src.globalHooksDir, common, sections)
	if err != nil {
		return in, nil, err
	}
	if src.globalHooksDir != "" {
		if err := addHooks(ctx, src.hooks, &in, src.globalHooksDir, hookexec.Owner{Scope: bindings.ScopeGlobal}); err != nil {
			return in, nil, err
		}
	}
	for _, def := range defs {
		layers := append(def.StaticEnabled(), sections.Enabled)
		if !src.allModules && !values.EnabledByLayers(def.Names.ValuesKey, layers...) {
			continue
		}
		if err := addModule(ctx, src, &in, crdKinds, def, global, sections); err != nil {
			return in, nil, err
		}
	}
	return in, crdKinds, nil
}

func globalValues(dir string, common, config values.Sections) (values.Snapshot, error) {
	var schemas *schema.Set
	if dir != "" {
		var err error
		schemas, err = schema.Load(os.DirFS(dir), "openapi", values.GlobalKey)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return values.Snapshot{}, fmt.Errorf("global hooks %s: %w", dir, err)
		}
	}
	// As the global actor starts: a validation error here is not final,
	// required keys may come with the section.
	scope, _ := values.NewGlobalScope(schemas, common)
	scope, reply := hookrun.ApplySection(scope, messages.OwnerGlobal, config.Global)
	if reply.Err != "" {
		return values.Snapshot{}, fmt.Errorf("global values: %s", reply.Err)
	}
	return scope.Snapshot(), nil
}

// addModule adds one enabled module: its release's objects, its hooks'
// bindings, its crds/ files and its module.yaml rules.
func addModule(ctx context.Context, src rbacSources, in *rbacgen.Input, crdKinds rbacgen.Table,
	def layout.Definition, global values.Snapshot, config values.Sections) error {
	name := def.Names.Name
	if def.HasChart {
		scope, err := moduleValues(def, config)
		if err != nil {
			return err
		}
		if err := addRelease(ctx, src.render, in, def, values.HelmValues(global, scope.Snapshot())); err != nil {
			return err
		}
	}
	if err := addHooks(ctx, src.hooks, in, def.Dir, hookexec.Owner{Scope: bindings.ScopeModule, Module: name}); err != nil {
		return err
	}
	if err := addCRDFiles(crdKinds, def.CRDFiles); err != nil {
		return fmt.Errorf("module %s: %w", name, err)
	}
	in.CRDs = in.CRDs || len(def.CRDFiles) > 0
	for _, r := range def.RBAC {
		in.Rules = append(in.Rules, rbacgen.ModuleRule{Module: name, Rule: r})
	}
	return nil
}

// moduleValues are a module's values as its actor takes its ConfigMap
// section (hookrun.ApplySection: the section over the values files,
// OpenAPI defaults and validation).
func moduleValues(def layout.Definition, config values.Sections) (values.Scope, error) {
	// As the module actor starts: a validation error here is not final,
	// required keys may come with the section.
	scope, _ := values.NewModuleScope(def.Names, def.Schemas, def.Common, def.Own)
	var section any
	if s, ok := config.Modules[def.Names.ValuesKey]; ok {
		section = s
	}
	scope, reply := hookrun.ApplySection(scope, messages.ModuleOwner(def.Names.Name), section)
	if reply.Err != "" {
		return scope, fmt.Errorf("module %s: values: %s", def.Names.Name, reply.Err)
	}
	return scope, nil
}

func addRelease(ctx context.Context, render renderFunc, in *rbacgen.Input, def layout.Definition, vals map[string]any) error {
	name := def.Names.Name
	manifest, err := render(ctx, name, def.Dir, vals)
	if err != nil {
		return fmt.Errorf("module %s: %w", name, err)
	}
	objects, err := chartrun.ManifestObjects(manifest)
	if err != nil {
		return fmt.Errorf("module %s: %w", name, err)
	}
	for _, o := range objects {
		in.Objects = append(in.Objects, rbacgen.Object{Module: name, APIVersion: o.APIVersion, Kind: o.Kind,
			Name: o.Name, Namespace: o.Namespace})
	}
	return nil
}

// addHooks reads each hook's configuration (running it with --config, as
// the operator does) and adds its kubernetes and webhook bindings.
func addHooks(ctx context.Context, hooks hookConfigs, in *rbacgen.Input, root string, owner hookexec.Owner) error {
	found, err := hooks.DiscoverHooks(ctx, root, owner)
	if err != nil {
		return err
	}
	who := owner.Module
	if owner.Scope == bindings.ScopeGlobal {
		who = "global"
	}
	for _, h := range found {
		cfg, err := hooks.Config(ctx, h, owner.Scope)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, h.Path)
		for _, k := range cfg.Kubernetes {
			in.Watches = append(in.Watches, rbacgen.Watch{Owner: who, Hook: rel, APIVersion: k.APIVersion, Kind: k.Kind,
				Namespaces: k.Namespace.Names, ByLabel: k.Namespace.LabelSelector != ""})
		}
		in.Validating = in.Validating || len(cfg.Validating) > 0
		in.Mutating = in.Mutating || len(cfg.Mutating) > 0
		for _, c := range cfg.Conversion {
			in.ConversionCRDs = append(in.ConversionCRDs, c.CRDName)
		}
	}
	return nil
}

// addCRDFiles adds the kinds the CRD files define to the table.
func addCRDFiles(t rbacgen.Table, files []string) error {
	defs, err := crds.ReadFiles(files)
	if err != nil {
		return err
	}
	for _, d := range defs {
		obj := d.Object.Object
		group, _, _ := unstructured.NestedString(obj, "spec", "group")
		kind, _, _ := unstructured.NestedString(obj, "spec", "names", "kind")
		plural, _, _ := unstructured.NestedString(obj, "spec", "names", "plural")
		scope, _, _ := unstructured.NestedString(obj, "spec", "scope")
		if kind == "" || plural == "" {
			return fmt.Errorf("%s: spec.names.kind and spec.names.plural are required", d.Source)
		}
		t.AddCRD(group, kind, plural, scope != "Cluster")
	}
	return nil
}
