// Package bindings is the hook binding model: what a hook's `--config`
// declares (ORDER bindings, schedule and kubernetes bindings, settings),
// in one typed form for both formats of spec/HOOKS.md.
//
// It is plain data: crontabs, jq filters and label and field selectors are
// kept as their text, checked by the parser (hookexec/hookconfig) and
// compiled where they are used (the schedule and kube actors). So messages
// may carry bindings without pulling in gojq, cron or apimachinery.
package bindings
