// Package config owns ConfigMap/addon-operator, the operator's configuration
// source and sink.
//
// The actor (New) parses every version of the ConfigMap that the watch
// reports and tells its parent (or Options.Report) what changed with
// messages.ConfigChanged: the global section, enabled flags, or a module's
// section, and nothing when only formatting changed. An invalid version is
// logged, counted (config_values_errors_total) and reported as
// messages.ConfigInvalid while the last good configuration stays in force;
// with no good configuration yet (start-up) the report is marked Initial and
// the operator stops. A ConfigMap missing at start-up is an empty
// configuration; one deleted after it was read is taken as an accident: the
// last good configuration stays in force (logged at WARN, Options.Missing
// set to 1, Options.Board's ConfigState) and its content is applied as any
// change when it exists again.
// A change is applied whole or not at all (check.go): the owners whose
// section it changes (the global actor, module actors that have had a
// section) are asked whether they would take it (messages.CheckConfig),
// and one that would not rejects the whole change, logged per owner,
// counted and reported as messages.ConfigInvalid; a newer version
// replaces a check still waiting.
// Told which module actor reads which section (messages.SectionReaders), it
// hands each module its section with messages.ApplyConfig: the first one
// answered to the operator (which waits for them at start-up), then every
// changed one, answered to the config actor, which counts and logs a
// rejected one; the module queues its own run, unless the same change also
// changed the global section or an enabled flag (ApplyConfig.ReloadFollows):
// the operator's reload of all modules then runs it.
// messages.ConfigPatch is written by a child writer, one patch at a time, and
// answered with messages.ConfigPatchDone. The writer returns the
// resourceVersion it wrote: the written data is applied at once, and the
// watch's report of that version (the echo) is dropped without a parse.
//
// ModuleConfigs (Options.ModuleConfigs, moduleconfigs.go) are a second
// source: every object of this operator's modules is validated and laid
// over the ConfigMap's data with moduleconfig.Overlay's precedence by the
// pure layers (layers.go), an invalid one replaced by its last valid
// generation; the result goes the ConfigMap's way above, so nothing
// downstream tells the sources apart. ConfigMap sections of a module with
// settings versions are version 1, converted on read. Each object's
// status is written by the writer child; Objects (objects.go) is the
// informer and the status writer on the apiserver.
//
// The I/O half: Store.Watch and Store.Run report the one ConfigMap with an
// informer limited to it; Store.ApplyPatch writes config patches with
// read-modify-write on resourceVersion, retrying on conflict, creating the
// ConfigMap when it is absent and keeping every key it does not touch.
// Parsing and patching the data are the pure functions of
// values/configmap.
package config
