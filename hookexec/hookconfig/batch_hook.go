package hookconfig

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/addon-actors/addon-operator/hook/bindings"
)

// batchHookRaw is one module-sdk HookConfig. Keys addon-operator ignores
// (allowFailure, logLevel, settings.enableSchedulesOnStartup) are not read.
type batchHookRaw struct {
	ConfigVersion string `json:"configVersion"`
	Metadata      struct {
		Name string `json:"name"`
		Path string `json:"path"`
	} `json:"metadata"`
	Schedule         []map[string]json.RawMessage `json:"schedule"`
	Kubernetes       []map[string]json.RawMessage `json:"kubernetes"`
	OnStartup        json.RawMessage              `json:"onStartup"`
	BeforeHelm       json.RawMessage              `json:"beforeHelm"`
	AfterHelm        json.RawMessage              `json:"afterHelm"`
	BeforeDeleteHelm json.RawMessage              `json:"beforeDeleteHelm"`
	AfterDeleteHelm  json.RawMessage              `json:"afterDeleteHelm"`
	Settings         *struct {
		ExecutionMinInterval int64 `json:"executionMinInterval"`
		ExecutionBurst       int   `json:"executionBurst"`
	} `json:"settings"`
}

// The keys a batch binding may carry (UPSTREAM.md §1.4); others are
// dropped, as addon-operator decodes them leniently.
var (
	batchScheduleKeys   = []string{"name", "crontab", "queue"}
	batchKubernetesKeys = []string{"name", "apiVersion", "kind", "nameSelector", "namespace",
		"labelSelector", "fieldSelector", "jqFilter", "executeHookOnSynchronization",
		"waitForSynchronization", "keepFullObjectsInMemory", "allowFailure",
		"resynchronizationPeriod", "includeSnapshotsFrom", "queue"}
)

// parseBatchHook converts one HookConfig into a shell-operator v1
// configuration and parses that with Parse, so that batch and shell hooks
// are validated alike.
func parseBatchHook(item json.RawMessage, scope bindings.Scope, key string) (BatchHook, error) {
	var raw batchHookRaw
	if err := decodeLoose(item, &raw); err != nil {
		return BatchHook{}, err
	}
	doc := map[string]any{"configVersion": "v1"}
	orders := batchOrders(raw, scope)
	for t, v := range orders {
		doc[string(t)] = v
	}
	if len(raw.Schedule) > 0 {
		doc["schedule"] = batchBindings(raw.Schedule, batchScheduleKeys, nil)
	}
	if len(raw.Kubernetes) > 0 {
		doc["kubernetes"] = batchBindings(raw.Kubernetes, batchKubernetesKeys, kubernetesDefaults)
	}
	if s := raw.Settings; s != nil && (s.ExecutionMinInterval != 0 || s.ExecutionBurst != 0) {
		doc["settings"] = map[string]any{
			"executionMinInterval": time.Duration(s.ExecutionMinInterval).String(),
			"executionBurst":       s.ExecutionBurst,
		}
	}
	data, err := json.Marshal(doc)
	if err != nil {
		return BatchHook{}, fieldErr("", ErrSyntax, "%v", err)
	}
	cfg, err := Parse(data, scope)
	if err != nil {
		return BatchHook{}, err
	}
	return BatchHook{Key: key, Name: raw.Metadata.Name, Config: cfg}, nil
}

// batchOrders maps the HookConfig's ORDER bindings onto the scope's
// binding types: for a global hook beforeHelm is beforeAll and afterHelm
// afterAll; the delete bindings are module-only and dropped there.
func batchOrders(raw batchHookRaw, scope bindings.Scope) map[bindings.Type]json.RawMessage {
	before, after := bindings.BeforeHelm, bindings.AfterHelm
	if scope == bindings.ScopeGlobal {
		before, after = bindings.BeforeAll, bindings.AfterAll
	}
	all := map[bindings.Type]json.RawMessage{
		bindings.OnStartup: raw.OnStartup, before: raw.BeforeHelm, after: raw.AfterHelm,
	}
	if scope == bindings.ScopeModule {
		all[bindings.AfterDeleteHelm] = raw.AfterDeleteHelm
		all[bindings.BeforeDeleteHelm] = raw.BeforeDeleteHelm
	}
	out := map[bindings.Type]json.RawMessage{}
	for t, v := range all {
		if present(v) {
			out[t] = v
		}
	}
	return out
}

// batchBindings keeps the known keys of each binding (null is absent),
// puts it in BatchGroup and applies defaults.
func batchBindings(list []map[string]json.RawMessage, keys []string, defaults func(in, out map[string]any)) []map[string]any {
	out := make([]map[string]any, 0, len(list))
	for _, in := range list {
		b := map[string]any{"group": BatchGroup}
		for _, k := range keys {
			if v, ok := in[k]; ok && present(v) {
				b[k] = v
			}
		}
		if defaults != nil {
			defaults(toAny(in), b)
		}
		out = append(out, b)
	}
	return out
}

// kubernetesDefaults applies the batch defaults that differ from
// shell-operator's: executeHookOnEvent is a bool (false: no event runs the
// hook; true or absent: every event), and keepFullObjectsInMemory is false unless said.
func kubernetesDefaults(in, out map[string]any) {
	switch v := in["executeHookOnEvent"].(type) {
	case nil:
	case bool:
		if !v {
			out["executeHookOnEvent"] = []string{}
		}
	default: // not the SDK's bool: the v1 rules check it
		out["executeHookOnEvent"] = v
	}
	if _, ok := out["keepFullObjectsInMemory"]; !ok {
		out["keepFullObjectsInMemory"] = false
	}
}

func toAny(in map[string]json.RawMessage) map[string]any {
	out := make(map[string]any, len(in))
	for k, v := range in {
		var x any
		if json.Unmarshal(v, &x) == nil {
			out[k] = x
		}
	}
	return out
}

func present(v json.RawMessage) bool {
	t := bytes.TrimSpace(v)
	return len(t) > 0 && string(t) != "null"
}
