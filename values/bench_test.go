package values_test

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	jsonpatch "github.com/evanphx/json-patch/v5"

	"github.com/addon-actors/addon-operator/values"
	"github.com/addon-actors/addon-operator/values/configmap"
	"github.com/addon-actors/addon-operator/values/schema"
)

// genSchema writes a config-values.yaml with n properties of mixed kinds, a
// values.yaml extending it, and a ConfigMap section setting every property.
func genSchema(n int) (configValues, valuesYAML, section string) {
	// The properties' kinds in turn: a property's schema and its value in
	// the section ({i}: its number).
	propertyKinds := [...]struct{ schema, value string }{
		{"{type: string, maxLength: 64, pattern: '^[a-z0-9-]+$'}", "value-{i}"},
		{"{type: integer, minimum: 0, maximum: 100000}", "{i}"},
		{"{type: boolean, default: true}", "false"},
		{"{type: object, properties: {host: {type: string}, port: {type: integer, default: 80}, tls: {type: boolean}}}", "{host: h{i}, tls: true}"},
		{"{type: array, items: {type: string}}", "[a, b, c]"},
		{"{type: string, enum: [Low, Medium, High]}", "Medium"},
	}
	var cfg, sec strings.Builder
	cfg.WriteString("type: object\nproperties:\n")
	for i := 0; i < n; i++ {
		name, kind := fmt.Sprintf("p%03d", i), propertyKinds[i%len(propertyKinds)]
		fmt.Fprintf(&cfg, "  %s: %s\n", name, kind.schema)
		fmt.Fprintf(&sec, "%s: %s\n", name, strings.ReplaceAll(kind.value, "{i}", fmt.Sprint(i)))
	}
	valuesYAML = "x-extend: {schema: config-values.yaml}\ntype: object\nx-required-for-helm: [internal]\n" +
		"properties:\n  internal:\n    type: object\n    default: {}\n    properties:\n      discovered: {type: array, items: {type: string}}\n"
	return cfg.String(), valuesYAML, sec.String()
}

type benchModule struct {
	names values.Names
	scope values.Scope
}

// genTree builds n modules with a size-property schema each, and the
// ConfigMap data that configures them all.
func genTree(b *testing.B, n, size int) ([]benchModule, map[string]string) {
	cfgSchema, valSchema, section := genSchema(size)
	fsys := fstest.MapFS{}
	data := map[string]string{"global": "project: p\n"}
	modules := make([]benchModule, 0, n)
	for i := 0; i < n; i++ {
		names, err := values.ParseModuleDir(fmt.Sprintf("%03d-module-m%d", i, i))
		if err != nil {
			b.Fatal(err)
		}
		dir := "modules/" + names.Dir + "/openapi"
		fsys[dir+"/config-values.yaml"] = &fstest.MapFile{Data: []byte(cfgSchema)}
		fsys[dir+"/values.yaml"] = &fstest.MapFile{Data: []byte(valSchema)}
		set, err := schema.Load(fsys, dir, names.ValuesKey)
		if err != nil {
			b.Fatal(err)
		}
		scope, err := values.NewModuleScope(names, set)
		if err != nil {
			b.Fatal(err)
		}
		modules = append(modules, benchModule{names: names, scope: scope})
		data[names.ValuesKey] = section
	}
	return modules, data
}

func modulePatch(b *testing.B, key string) jsonpatch.Patch {
	raw := strings.Replace(`[{"op":"add","path":"/KEY/internal/discovered","value":["a","b"]}]`, "KEY", key, 1)
	p, err := jsonpatch.DecodePatch([]byte(raw))
	if err != nil {
		b.Fatal(err)
	}
	return p
}

// mergeValidate is one module's merge + validate, as on a ConfigMap change:
// values.yaml and ConfigMap layers merged, config-values.yaml defaults,
// validation against config-values.yaml, values.yaml defaults, and the
// in-memory layer replayed.
func mergeValidate(b *testing.B, m benchModule, section any) values.Scope {
	s, err := m.scope.WithConfig(section)
	if err != nil {
		b.Fatal(err)
	}
	return s
}

func reportPerModule(b *testing.B, modules int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/1e6/float64(b.N*modules), "ms/module")
}

// BenchmarkModule200Properties: merge + validate one module's values with a
// 200-property schema (target: at most 1 ms per module), and, for scale, a
// hook run (values patch: merge, replay, validation against values.yaml)
// and the check before helm (x-required-for-helm).
func BenchmarkModule200Properties(b *testing.B) {
	modules, data := genTree(b, 1, 200)
	cfg, err := configmap.Parse(data)
	if err != nil {
		b.Fatal(err)
	}
	m := modules[0]
	section, patch := cfg.Modules[m.names.ValuesKey], modulePatch(b, m.names.ValuesKey)
	configured := mergeValidate(b, m, section)
	b.Run("merge+validate", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			mergeValidate(b, m, section)
		}
		reportPerModule(b, 1)
	})
	b.Run("hook-values-patch", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, _, err := configured.WithValuesPatch(patch); err != nil {
				b.Fatal(err)
			}
		}
		reportPerModule(b, 1)
	})
	b.Run("before-helm", func(b *testing.B) {
		patched, _, _ := configured.WithValuesPatch(patch)
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if err := patched.ValidateForHelm(); err != nil {
				b.Fatal(err)
			}
		}
		reportPerModule(b, 1)
	})
}

// BenchmarkTree100Modules: merge + validate every module of a generated
// tree of 100 modules (200-property schemas each), as after a ConfigMap
// change that touches them all.
func BenchmarkTree100Modules(b *testing.B) {
	modules, data := genTree(b, 100, 200)
	cfg, err := configmap.Parse(data)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, m := range modules {
			mergeValidate(b, m, cfg.Modules[m.names.ValuesKey])
		}
	}
	reportPerModule(b, len(modules))
}

// BenchmarkParseConfigMap100Modules: parsing the ConfigMap data of that tree
// (one 200-line YAML section per module), which the config actor does on
// each change.
func BenchmarkParseConfigMap100Modules(b *testing.B) {
	_, data := genTree(b, 100, 200)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := configmap.Parse(data); err != nil {
			b.Fatal(err)
		}
	}
	reportPerModule(b, 100)
}

// BenchmarkParseConfigMapOneEdit: the same data after an edit of one
// module's section, parsed with the config actor's Cache.
func BenchmarkParseConfigMapOneEdit(b *testing.B) {
	_, data := genTree(b, 100, 200)
	var cache configmap.Cache
	if _, err := cache.Parse(data); err != nil {
		b.Fatal(err)
	}
	key := "module" + "M7"
	original := data[key]
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		data[key] = original + fmt.Sprintf("extra%d: 1\n", i%2)
		if _, err := cache.Parse(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoadSchemas200Properties: compiling one module's schemas, done
// once at start-up (and on a module reload).
func BenchmarkLoadSchemas200Properties(b *testing.B) {
	cfgSchema, valSchema, _ := genSchema(200)
	fsys := fstest.MapFS{
		"openapi/config-values.yaml": &fstest.MapFile{Data: []byte(cfgSchema)},
		"openapi/values.yaml":        &fstest.MapFile{Data: []byte(valSchema)},
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := schema.Load(fsys, "openapi", "m"); err != nil {
			b.Fatal(err)
		}
	}
}
