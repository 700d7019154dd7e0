// Package moduleobject decides what a Module object (modules.addon-operator.io,
// one per module and one named "global") shows: its status (phase, a
// one-line message, kstatus-compatible conditions, the release, the last
// run, the retry) and the Events a change of a module's state yields.
//
// It is pure: Compute and Events take an Input, filled by an adapter from
// what the owners publish on the board, and the time from the caller's
// clock; they do no I/O. The writer actor (actors/moduleobjects) decides
// when to write what they compute; the CRD it creates is CRD, the same
// bytes the chart ships (deploy/addon-operator/crds/modules.yaml).
package moduleobject
