// Package config owns ConfigMap/addon-operator, the operator's configuration
// source and sink. Its I/O half watches the one ConfigMap with an informer
// limited to it (Watch) and writes hooks' config patches back with
// read-modify-write on resourceVersion, retrying on conflict and creating the
// ConfigMap when it is absent (Store). Parsing and patching the data are the
// pure functions of actors/values/configmap.
package config
