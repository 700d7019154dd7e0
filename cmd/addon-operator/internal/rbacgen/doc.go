// Package rbacgen computes the RBAC rules the operator needs for its
// modules (`addon-operator rbac`), in pure code: the caller gathers what the
// modules declare (their releases' rendered objects, their hooks' kubernetes
// and webhook bindings, their crds/ dirs, module.yaml's `rbac` list) and a
// Mapper from kind to resource, and gets back a ClusterRole's rules and one
// Role's rules per namespace, merged and sorted so that the same modules
// always print the same manifests.
//
// Where a rule goes: a cluster-scoped resource, and a namespaced one needed
// in every namespace (a binding without namespaces), go to the ClusterRole;
// a namespaced resource needed in some namespaces goes to a Role in each,
// except in a namespace that a module's release creates (the Role could not
// be applied before the release ran), where it goes to the ClusterRole too.
// A namespaced need that the ClusterRole already grants is left out of the
// Role.
//
// Missing compares needed rules with those a cluster grants now (or a
// file), for a CI step: what is left is what to add.
package rbacgen
