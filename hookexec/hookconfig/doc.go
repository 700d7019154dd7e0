// Package hookconfig parses the output of a hook's `--config` run into the
// binding model of package hook/bindings, for both formats of spec/HOOKS.md: `configVersion: v1` and the older
// form without configVersion (onKubernetesEvent, schedule, ORDER numbers).
//
// Parse validates as it goes: crontabs (5 or 6 fields, robfig/cron/v3),
// jqFilter programs (compiled with itchyny/gojq), label and field selectors, the scope of each binding (beforeAll/afterAll are
// global only, beforeHelm/afterHelm/beforeDeleteHelm/afterDeleteHelm module only), unique
// binding names and valid queue and group names; the webhook bindings
// (kubernetesValidating, kubernetesMutating,
// kubernetesCustomResourceConversion) with shell-operator's schema and,
// for validating ones, the apiserver's checks of their names, timeouts and
// rules. Every error names the field
// that is wrong as a path such as `kubernetes[1].jqFilter`; the caller adds the
// hook file.
//
// The model keeps what it checked as text (crontabs, jq filters, the label
// and field selectors of kubernetes bindings; webhook bindings keep the
// Kubernetes types); ParseCrontab, CompileJq and ParseLabelSelector read that
// text again where it is used (the schedule and kube actors), the same way
// Parse checked it.
//
// ParseBatch reads the `hook config` output of a batch hook executable
// (module-sdk, spec/UPSTREAM.md §1.3–1.4): each nested hook's config is
// converted to a v1 configuration (schedule and kubernetes bindings in group
// main, executeHookOnEvent as a bool, global beforeHelm/afterHelm as
// beforeAll/afterAll) and checked by Parse; errors name the nested hook.
//
// The package is pure: it neither runs hooks nor reads files.
package hookconfig
