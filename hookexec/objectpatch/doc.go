// Package objectpatch reads the object patch file a hook writes
// ($KUBERNETES_PATCH_PATH, UPSTREAM.md §1.9) into plain operations (Parse)
// and applies them to the cluster through a dynamic client and a REST
// mapper (Applier). Parsing is pure; the Applier is the only I/O.
package objectpatch
