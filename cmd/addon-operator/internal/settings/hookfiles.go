package settings

import (
	"strconv"

	"github.com/addon-actors/addon-operator/hookexec"
)

// hookFileTable are the caps of the output files a hook writes, per kind
// of file (hookexec.OutputCaps says why each default is far above what a
// working hook writes): past its cap a file is not read and the run fails
// naming the file and the cap.
func hookFileTable() []setting {
	n := func(v int64) string { return strconv.FormatInt(v, 10) }
	return []setting{
		{"hook-values-patch-max-bytes", n(hookexec.DefaultValuesPatchMaxBytes), "cap of a hook's VALUES_JSON_PATCH_PATH and CONFIG_VALUES_JSON_PATCH_PATH files, each; larger fails the run", []string{"ADDON_OPERATOR_HOOK_VALUES_PATCH_MAX_BYTES"}},
		{"hook-metrics-max-bytes", n(hookexec.DefaultMetricsMaxBytes), "cap of a hook's METRICS_PATH file; larger fails the run", []string{"ADDON_OPERATOR_HOOK_METRICS_MAX_BYTES"}},
		{"hook-object-patches-max-bytes", n(hookexec.DefaultObjectPatchesMaxBytes), "cap of a hook's KUBERNETES_PATCH_PATH file; larger fails the run", []string{"ADDON_OPERATOR_HOOK_OBJECT_PATCHES_MAX_BYTES"}},
		{"hook-webhook-response-max-bytes", n(hookexec.DefaultWebhookResponseMaxBytes), "cap of a webhook hook's VALIDATING_RESPONSE_PATH and CONVERSION_RESPONSE_PATH files, each; larger fails the review", []string{"ADDON_OPERATOR_HOOK_WEBHOOK_RESPONSE_MAX_BYTES"}},
	}
}

// hookFiles reads the caps of hookFileTable; each is a positive number of
// bytes.
func (c *converter) hookFiles(v map[string]string) hookexec.OutputCaps {
	return hookexec.OutputCaps{
		ValuesPatch:     int64(c.positive(v, "hook-values-patch-max-bytes")),
		Metrics:         int64(c.positive(v, "hook-metrics-max-bytes")),
		ObjectPatches:   int64(c.positive(v, "hook-object-patches-max-bytes")),
		WebhookResponse: int64(c.positive(v, "hook-webhook-response-max-bytes")),
	}
}
