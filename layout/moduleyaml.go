package layout

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/Masterminds/semver/v3"
	yaml "go.yaml.in/yaml/v3"
)

// ModuleYAMLFile is the optional definition file of a module dir, in
// Deckhouse's format (spec/REQUIREMENTS.md §1).
const ModuleYAMLFile = "module.yaml"

// optionalSuffix makes a module requirement conditional. Deckhouse cuts it
// off the end of the value, so it is only recognised as the last token;
// anywhere else it is part of the constraint, which then does not parse.
const optionalSuffix = "!optional"

// Requirements are the requirements of a module.yaml that this operator
// acts on (spec/REQUIREMENTS.md §2): an unmet one disables the module.
type Requirements struct {
	// Kubernetes is a constraint on the apiserver version, "" = none.
	Kubernetes string
	// Modules are requirements.modules, sorted by Module.
	Modules []ModuleRequirement
	// Declared tells that module.yaml has a `requirements` key, whatever
	// it holds (`requirements: {modules: {}}` included).
	Declared bool
}

// ModuleRequirement is one entry of requirements.modules: the module must be
// enabled (unless Optional) and its version must satisfy Constraint.
type ModuleRequirement struct {
	// Module is the required module's kebab-case name.
	Module string
	// Constraint is the Masterminds semver constraint text, trimmed, without
	// "!optional".
	Constraint string
	// Optional tells that "!optional" was the last token: the requirement is
	// checked only while the required module is enabled.
	Optional bool
}

// OrdersByRequirements tells whether the module declares requirements
// (empty included): it is then ordered by them, not by its weight. A
// module that says it requires nothing is held by nothing; only a
// module.yaml without the key keeps the weight order.
func (r Requirements) OrdersByRequirements() bool { return r.Declared }

// DriftModes are the values of the drift setting and of module.yaml's
// `drift` key: report a release's objects that differ from its manifest,
// restore them, or do not look.
var DriftModes = []string{"report", "restore", "off"}

// Release is a module.yaml's say on how its release is kept; an empty field
// follows the operator's setting.
type Release struct {
	// Drift is one of DriftModes, or "".
	Drift string
	// Wait (readiness.wait) turns the wait for the release's workloads
	// after helm on or off; nil follows the operator's setting.
	Wait *bool
	// WaitTimeout (readiness.timeout) bounds that wait; 0 follows the
	// operator's setting.
	WaitTimeout time.Duration
	// Remediation is what follows a failed release (remediation).
	Remediation Remediation
}

// ModuleYAML is what a module.yaml holds for this operator.
type ModuleYAML struct {
	Requirements Requirements
	Release      Release
	// RBAC is the `rbac` list: rules the module's hooks need that
	// `addon-operator rbac` cannot read from their configuration.
	RBAC []PolicyRule
	// Ignored are the dotted keys that were read and accepted but change
	// nothing here ("weight", "requirements.deckhouse"), sorted: Deckhouse's
	// files must load unchanged, and the caller logs these at debug.
	Ignored []string
	// Warnings are sentences naming the file and key of what was dropped
	// (a module requiring itself), sorted.
	Warnings []string
}

// ReadModuleYAML reads dir/module.yaml of the module named module. The file
// is optional: without it the result is empty.
func ReadModuleYAML(dir, module string) (ModuleYAML, error) {
	file := filepath.Join(dir, ModuleYAMLFile)
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return ModuleYAML{}, nil
	}
	if err != nil {
		return ModuleYAML{}, fmt.Errorf("read %s: %w", file, err)
	}
	return ParseModuleYAML(file, module, data)
}

// ParseModuleYAML parses the module.yaml of the module named module; file
// names it in errors and warnings. Bad YAML, a key of the wrong type and an
// unparsable constraint are errors naming the file, the key and the line.
func ParseModuleYAML(file, module string, data []byte) (ModuleYAML, error) {
	// Nodes rather than a decode into maps: a constraint is read as written
	// (`kubernetes: 1.20` stays "1.20", as Deckhouse's yaml.v3 decode into a
	// string keeps it), and errors can give the line.
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return ModuleYAML{}, fmt.Errorf("%s: %w", file, err)
	}
	if len(doc.Content) == 0 {
		return ModuleYAML{}, nil // an empty file says nothing
	}
	p := yamlReader{file: file}
	var out ModuleYAML
	err := p.eachEntry("", doc.Content[0], func(e yamlEntry, key string) (err error) {
		switch e.key {
		case "requirements":
			out.Requirements.Declared = true
			err = p.requirements(e.value, module, &out)
		case "drift":
			out.Release.Drift, err = p.oneOf(key, e.value, DriftModes)
		case "readiness":
			err = p.readiness(e.value, &out.Release)
		case "rbac":
			out.RBAC, err = p.rbacRules(e.value)
		case "remediation":
			err = p.remediation(e.value, &out.Release.Remediation)
		default:
			out.Ignored = append(out.Ignored, key)
		}
		return err
	})
	if err != nil {
		return ModuleYAML{}, err
	}
	sort.Strings(out.Ignored)
	sort.Strings(out.Warnings)
	return out, nil
}

// requirements reads the `requirements` mapping into out.
func (p yamlReader) requirements(n *yaml.Node, module string, out *ModuleYAML) error {
	return p.eachEntry("requirements", n, func(e yamlEntry, key string) error {
		switch e.key {
		case "modules":
			return p.moduleRequirements(e.value, module, out)
		case "kubernetes":
			text, err := p.scalar(key, e.value)
			if err != nil {
				return err
			}
			out.Requirements.Kubernetes, err = p.constraint(key, e.value, text)
			return err
		}
		out.Ignored = append(out.Ignored, key)
		return nil
	})
}

// moduleRequirements reads requirements.modules into out, sorted by module.
func (p yamlReader) moduleRequirements(n *yaml.Node, module string, out *ModuleYAML) error {
	var reqs []ModuleRequirement
	err := p.eachEntry("requirements.modules", n, func(e yamlEntry, key string) error {
		if isNull(e.value) {
			return p.errorf(key, e.value, `want a constraint (">= 0.0.0" for any version), got null`)
		}
		text, err := p.scalar(key, e.value)
		if err != nil {
			return err
		}
		req := ModuleRequirement{Module: e.key}
		text, req.Optional = strings.CutSuffix(strings.TrimSpace(text), optionalSuffix)
		if req.Constraint, err = p.constraint(key, e.value, text); err != nil {
			return err
		}
		if req.Constraint == "" {
			return p.errorf(key, e.value, `want a constraint (">= 0.0.0" for any version), got none`)
		}
		if e.key == module {
			// Deckhouse drops it with a warning too: the module would
			// otherwise wait for itself and never be enabled.
			out.Warnings = append(out.Warnings, fmt.Sprintf("%s: %s: a module cannot require itself; the requirement is dropped", p.file, key))
			return nil
		}
		reqs = append(reqs, req)
		return nil
	})
	if err != nil {
		return err
	}
	sort.Slice(reqs, func(i, j int) bool { return reqs[i].Module < reqs[j].Module })
	out.Requirements.Modules = reqs
	return nil
}

// oneOf reads a scalar that must be one of values, or null.
func (p yamlReader) oneOf(key string, n *yaml.Node, values []string) (string, error) {
	text, err := p.scalar(key, n)
	if err != nil {
		return "", err
	}
	if text != "" && !slices.Contains(values, text) {
		return "", p.errorf(key, n, "want one of %s, got %q", strings.Join(values, ", "), text)
	}
	return text, nil
}

// constraint trims text and checks that it parses, so that a typo fails the
// load that can name its file and line, not each later check.
func (p yamlReader) constraint(key string, n *yaml.Node, text string) (string, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return "", nil
	}
	if _, err := semver.NewConstraint(text); err != nil {
		return "", p.errorf(key, n, "constraint %q: %v", text, err)
	}
	return text, nil
}

// ReadChartVersion returns the `version` of dir/Chart.yaml as written, ""
// when the file or the key is absent: the version that requirements of other
// modules are checked against.
func ReadChartVersion(dir string) (string, error) {
	file := filepath.Join(dir, "Chart.yaml")
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read %s: %w", file, err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return "", fmt.Errorf("%s: %w", file, err)
	}
	if len(doc.Content) == 0 {
		return "", nil
	}
	p := yamlReader{file: file}
	top, err := p.mapping("", doc.Content[0])
	if err != nil {
		return "", err
	}
	for _, e := range top {
		if e.key == "version" {
			return p.scalar("version", e.value)
		}
	}
	return "", nil
}
