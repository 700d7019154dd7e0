// Package app assembles the operator from its parts: it reads the modules
// and global hooks directories, builds the hook runner, the ConfigMap store,
// the helm releaser and the metrics, spawns the actor tree (config, queue,
// global, one actor per module) under the operator root with the lifecycle
// brain, and stops it all again.
package app
