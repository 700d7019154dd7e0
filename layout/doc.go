// Package layout reads the modules directories as spec/MODULES.md lays
// them out: which dirs are modules (NNN-kebab-name, dot-files and lib/
// skipped), their names and values keys, their values.yaml files, charts
// and enabled scripts, and the common values.yaml. It returns plain
// definitions and wrapped errors (ErrUnseen, LoadError) and starts nothing:
// the operator decides what a scan means, the module actors run what it
// found.
package layout
