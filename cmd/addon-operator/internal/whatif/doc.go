// Package whatif answers `addon-operator plan`: what a converge would do
// with a candidate ConfigMap, without applying anything. It runs the
// modules' enabled scripts as discovery does (in module order, with the
// candidate values and the modules enabled before each), builds each
// scope's values with the candidate sections (values.Scope, the same
// layering and OpenAPI validation as the actors), decides the module runs,
// deletes and purges with the operator's own plan (operator.PlanWhatIf),
// and compares each release's deployed manifest with the chart rendered
// with the candidate values (chartrun/manifestdiff). Hooks other than
// enabled scripts are not run.
package whatif
