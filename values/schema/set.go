package schema

import (
	"errors"
	"fmt"
	"io/fs"
	"path"

	"github.com/go-openapi/spec"

	"github.com/addon-actors/addon-operator/values/mask"
)

// File names of a scope's schemas inside its openapi directory.
const (
	ConfigValuesFile = "config-values.yaml"
	ValuesFile       = "values.yaml"
)

// Set is the compiled schemas of one scope. Any of them may be nil (no such
// file), and a nil *Set has no schemas: everything validates and no
// defaults apply.
type Set struct {
	// Config is openapi/config-values.yaml.
	Config *Schema
	// Values is openapi/values.yaml with x-extend applied.
	Values *Schema
	// Helm is Values with x-required-for-helm merged into required.
	Helm *Schema

	passwords mask.Paths // see Passwords
}

// Files holds the schema files of one openapi directory by name. ReadFile
// is how Compile finds the file an x-extend names; it must return an error
// matching fs.ErrNotExist for a missing file.
type Files struct {
	// Dir prefixes file names in messages, e.g. "modules/001-a/openapi".
	Dir string
	// ReadFile reads a file of Dir by its name.
	ReadFile func(name string) ([]byte, error)
}

// Load compiles the schemas in dir of fsys for the scope whose values live
// under key ("global" or a module's values key). A missing directory or
// missing files mean no schema.
func Load(fsys fs.FS, dir, key string) (*Set, error) {
	return Compile(key, Files{Dir: dir, ReadFile: func(name string) ([]byte, error) {
		return fs.ReadFile(fsys, path.Join(dir, name))
	}})
}

// Compile compiles the config-values.yaml and values.yaml of files.
func Compile(key string, files Files) (*Set, error) {
	config, err := readSchema(files, ConfigValuesFile)
	if err != nil {
		return nil, err
	}
	values, err := readSchema(files, ValuesFile)
	if err != nil {
		return nil, err
	}
	set := &Set{}
	if config != nil {
		closeRoot(config)
		set.Config = newSchema(files.name(ConfigValuesFile), key, config)
	}
	if values != nil {
		if err := extendFrom(files, values, config); err != nil {
			return nil, err
		}
		if err := set.compileValues(files, key, values); err != nil {
			return nil, err
		}
	}
	set.passwords = passwordsOf(set.Config, set.Values)
	return set, nil
}

func (set *Set) compileValues(files Files, key string, values *spec.Schema) error {
	closeRoot(values)
	helm, err := deepCopy(values)
	if err != nil {
		return fmt.Errorf("%s: copy for helm: %w", files.name(ValuesFile), err)
	}
	requireForHelm(helm)
	dropConsumed(helm)
	dropConsumed(values)
	set.Values = newSchema(files.name(ValuesFile), key, values)
	set.Helm = newSchema(files.name(ValuesFile)+" (for helm)", key, helm)
	return nil
}

// extendFrom applies the x-extend of values, reading the schema it names
// (config-values.yaml is already parsed as config).
func extendFrom(files Files, values, config *spec.Schema) error {
	target, err := extendTarget(files.name(ValuesFile), values)
	if err != nil || target == "" {
		return err
	}
	parent := config
	if target != ConfigValuesFile || parent == nil {
		if parent, err = readSchema(files, target); err != nil {
			return fmt.Errorf("%s: x-extend: %w", files.name(ValuesFile), err)
		}
		if parent == nil {
			return fmt.Errorf("%s: %w: schema %s does not exist", files.name(ValuesFile), ErrExtend, files.name(target))
		}
	}
	// The parent's nested schemas must not be shared with the extended one.
	if parent, err = deepCopy(parent); err != nil {
		return fmt.Errorf("%s: x-extend: copy %s: %w", files.name(ValuesFile), target, err)
	}
	extend(values, parent)
	return nil
}

// readSchema returns nil, nil for a missing file.
func readSchema(files Files, name string) (*spec.Schema, error) {
	if files.ReadFile == nil {
		return nil, nil
	}
	data, err := files.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", files.name(name), err)
	}
	return parseSchema(files.name(name), data)
}

func (f Files) name(file string) string {
	if f.Dir == "" {
		return file
	}
	return path.Join(f.Dir, file)
}

// ValidateConfig checks values merged from values.yaml files and the
// ConfigMap (with defaults applied) against config-values.yaml.
func (set *Set) ValidateConfig(scope string, section any) error {
	if set == nil {
		return nil
	}
	return set.Config.Validate(scope, section)
}

// ValidateValues checks values after patches against values.yaml.
func (set *Set) ValidateValues(scope string, section any) error {
	if set == nil {
		return nil
	}
	return set.Values.Validate(scope, section)
}

// ValidateHelm checks the values handed to helm against values.yaml with
// x-required-for-helm.
func (set *Set) ValidateHelm(scope string, section any) error {
	if set == nil {
		return nil
	}
	return set.Helm.Validate(scope, section)
}

// ApplyConfigDefaults sets, in place, the defaults of config-values.yaml
// where section lacks a key: what config values are validated with.
func (set *Set) ApplyConfigDefaults(section any) {
	if set != nil && set.Config != nil {
		set.Config.defaults.apply(section)
	}
}

// ApplyDefaults sets, in place, the defaults of config-values.yaml and then
// of values.yaml where section lacks a key: the defaults layer of values.
func (set *Set) ApplyDefaults(section any) {
	if set == nil {
		return
	}
	set.ApplyConfigDefaults(section)
	if set.Values != nil {
		set.Values.defaults.apply(section)
	}
}
