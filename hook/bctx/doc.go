// Package bctx builds binding contexts: the JSON array a hook reads from
// $BINDING_CONTEXT_PATH, in the v1 form (binding, type, watchEvent, object,
// filterResult, objects, snapshots; for webhook runs fromVersion, toVersion
// and review) and in the older form (binding, resourceEvent,
// resourceNamespace, resourceKind, resourceName), field by field as
// spec/HOOKS.md, spec/LIFECYCLE-STEPS.md and spec/WEBHOOKS.md show them.
//
// Objects, filter results and webhook requests arrive as raw JSON (the
// kube actor has them marshalled already, the apiserver sent the request)
// and are copied into the output as they are, so a context of hundreds of
// events costs one pass over their bytes.
package bctx
