// Package layout reads the modules directories as spec/MODULES.md lays
// them out: which dirs are modules (NNN-kebab-name, dot-files and lib/
// skipped), their names and values keys, their values.yaml files, charts
// and enabled scripts, and the common values.yaml. It also reads a module's
// optional module.yaml (Deckhouse's requirements, spec/REQUIREMENTS.md) and
// its Chart.yaml version, and holds the pure checks on them: Unmet (is a
// module's requirement met by the modules enabled so far) and
// RequirementOrder (the order discovery evaluates and runs modules in). It
// returns plain definitions and wrapped errors (ErrUnseen, LoadError,
// CycleError) and starts nothing: the operator decides what a scan means,
// the module actors run what it found.
package layout
