package conversion

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/itchyny/gojq"
	yaml "go.yaml.in/yaml/v3"
)

// Dir is where a module's (or the global hooks dir's) conversions lie.
const Dir = "openapi/conversions"

// ErrConversion marks a conversion file that cannot be used, and a
// conversion that fails on settings.
var ErrConversion = errors.New("settings conversion")

// Step is one conversion: from version To-1 to To.
type Step struct {
	To int
	// File is the conversion's file, as Load was given it.
	File    string
	program *gojq.Code
	source  string
}

// Chain is a module's conversions, by target version; the zero Chain has
// none (latest version 1). It is immutable and safe for concurrent use.
type Chain struct {
	steps []Step // sorted by To, from 2 on, without gaps
}

// Latest is the highest version: the last step's, or 1 without steps.
func (c Chain) Latest() int {
	if len(c.steps) == 0 {
		return 1
	}
	return c.steps[len(c.steps)-1].To
}

// Known tells whether settings may be written at version v: 1 up to the
// latest.
func (c Chain) Known(v int) bool { return v >= 1 && v <= c.Latest() }

// Steps are the conversions, by version.
func (c Chain) Steps() []Step { return slices.Clone(c.steps) }

// Load reads the conversions under dir of fsys (conversion.Dir of a module
// dir); a missing dir is no conversions.
func Load(fsys fs.FS, dir string) (Chain, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if errors.Is(err, fs.ErrNotExist) {
		return Chain{}, nil
	}
	if err != nil {
		return Chain{}, fmt.Errorf("read %s: %w", dir, err)
	}
	var steps []Step
	for _, e := range entries {
		if !e.Type().IsRegular() || path.Ext(e.Name()) != ".yaml" {
			continue
		}
		file := path.Join(dir, e.Name())
		data, err := fs.ReadFile(fsys, file)
		if err != nil {
			return Chain{}, fmt.Errorf("read %s: %w", file, err)
		}
		s, err := ParseFile(file, data)
		if err != nil {
			return Chain{}, err
		}
		steps = append(steps, s)
	}
	return NewChain(steps)
}

// NewChain orders steps into a chain from version 2 up; a version given
// twice or missing below the highest is an error naming the files.
func NewChain(steps []Step) (Chain, error) {
	steps = slices.Clone(steps)
	slices.SortFunc(steps, func(a, b Step) int { return a.To - b.To })
	for i, s := range steps {
		want := i + 2
		switch {
		case s.To < want:
			return Chain{}, fmt.Errorf("%s: version: %w: version %d also given by %s", s.File, ErrConversion, s.To, steps[i-1].File)
		case s.To > want:
			return Chain{}, fmt.Errorf("%s: version: %w: version %d needs a conversion to version %d first (none found: the chain has a gap)",
				s.File, ErrConversion, s.To, want)
		}
	}
	return Chain{steps: steps}, nil
}

// fileDoc is a conversion file: description is for people, not read.
type fileDoc struct {
	Version     yaml.Node `yaml:"version"`
	Conversions yaml.Node `yaml:"conversions"`
}

// ParseFile reads one conversion file; errors name the file, the key and
// the line.
func ParseFile(file string, data []byte) (Step, error) {
	var doc fileDoc
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return Step{}, fmt.Errorf("%s: %w: %v", file, ErrConversion, err)
	}
	var version int
	if doc.Version.Kind == 0 {
		return Step{}, fmt.Errorf("%s: version: %w: missing", file, ErrConversion)
	}
	if err := doc.Version.Decode(&version); err != nil || version < 2 {
		return Step{}, fmt.Errorf("%s: version: %w: want a whole number from 2 up, got %q (line %d)",
			file, ErrConversion, doc.Version.Value, doc.Version.Line)
	}
	var programs []string
	if err := doc.Conversions.Decode(&programs); err != nil || len(programs) == 0 {
		return Step{}, fmt.Errorf("%s: conversions: %w: want a list of jq programs (line %d)",
			file, ErrConversion, max(doc.Conversions.Line, doc.Version.Line))
	}
	source := strings.Join(programs, " | ")
	code, err := compile(source)
	if err != nil {
		return Step{}, fmt.Errorf("%s: conversions: %w: %v (line %d)", file, ErrConversion, err, doc.Conversions.Line)
	}
	return Step{To: version, File: file, program: code, source: source}, nil
}

func compile(source string) (*gojq.Code, error) {
	q, err := gojq.Parse(source)
	if err != nil {
		return nil, err
	}
	return gojq.Compile(q)
}
