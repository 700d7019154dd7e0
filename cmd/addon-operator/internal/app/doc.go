// Package app assembles the operator from its parts: it reads the modules
// and global hooks directories, builds the hook runner, the ConfigMap store,
// the helm releaser and the metrics, spawns the actor tree (config,
// schedule, kube, global, one actor per module, queue: children.go) under
// the operator root, which runs the lifecycle, and stops it all again.
package app
