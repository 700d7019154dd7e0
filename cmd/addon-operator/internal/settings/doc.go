// Package settings reads the operator's settings from flags and environment
// variables, with the names of the original flant/addon-operator so that
// existing Deployments work unchanged. A flag wins over its variable; a bad
// value is an error that names the variable or flag and the value.
package settings
