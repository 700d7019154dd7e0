// Package bindings is the hook binding model: what a hook's `--config`
// declares (ORDER bindings, schedule and kubernetes bindings, webhook
// bindings, settings), in one typed form for both formats of
// spec/HOOKS.md.
//
// It is plain data: crontabs, jq filters and the label and field
// selectors of kubernetes bindings are kept as their text, checked by the
// parser (hookexec/hookconfig) and compiled where they are used (the
// schedule and kube actors). So messages may carry bindings without
// pulling in gojq or cron. The webhook bindings keep the Kubernetes API
// types (admissionregistration/v1 rules, metav1 label selectors) that a
// webhook configuration is made of.
package bindings
