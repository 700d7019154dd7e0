// Package module is the module actor, one per module directory: it owns the
// module's hooks, its values (values.yaml files, its ConfigMap section, its
// hooks' patches), its enabled state and its release. It answers discovery
// (CheckEnabled runs the enabled script), and runs the module's tasks one at
// a time through its worker child: a module run (onStartup if it has not
// completed since the module was enabled, beforeHelm, helm upgrade when
// needed, afterHelm), a module delete (helm uninstall, afterDeleteHelm), and
// event hook runs. A failed run answers with the error and is retried by the
// queue from its first phase.
//
// Scan reads the modules directories into Definitions at start-up.
package module
