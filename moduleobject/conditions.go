package moduleobject

import (
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Condition types: kstatus's (Reconciling, Stalled: present only while
// True) and Ready, then the module's own.
const (
	ConditionReconciling        = "Reconciling"
	ConditionStalled            = "Stalled"
	ConditionReady              = "Ready"
	ConditionEnabled            = "Enabled"
	ConditionRequirementsMet    = "RequirementsMet"
	ConditionDrifted            = "Drifted"
	ConditionWebhooksRegistered = "WebhooksRegistered"
)

// cond is a condition before its times and generation are stamped.
type cond struct {
	typ, reason, msg string
	status           metav1.ConditionStatus
}

// conditions lists the conditions of phase, Reconciling and Stalled first
// (kstatus reads the first of them that is True), stamped with gen and a
// lastTransitionTime kept from old while the status stays.
func conditions(in Input, phase Phase, old []metav1.Condition, gen int64, now time.Time) []metav1.Condition {
	var list []cond
	if c, ok := reconciling(phase); ok {
		list = append(list, c)
	}
	if c, ok := stalled(phase); ok {
		list = append(list, c)
	}
	list = append(list, ready(phase), enabled(in))
	if !in.Global {
		list = append(list, requirements(in), drifted(in))
	}
	if in.Webhooks > 0 {
		list = append(list, webhooks(in))
	}
	out := make([]metav1.Condition, 0, len(list))
	for _, c := range list {
		out = append(out, stamp(c, old, gen, now))
	}
	return out
}

func stamp(c cond, old []metav1.Condition, gen int64, now time.Time) metav1.Condition {
	at := metav1.NewTime(now.Truncate(time.Second))
	for _, o := range old {
		if o.Type == c.typ && o.Status == c.status {
			at = o.LastTransitionTime
		}
	}
	return metav1.Condition{Type: c.typ, Status: c.status, ObservedGeneration: gen, LastTransitionTime: at,
		Reason: c.reason, Message: c.msg}
}

func reconciling(p Phase) (cond, bool) {
	c := cond{typ: ConditionReconciling, status: metav1.ConditionTrue}
	switch p {
	case Pending:
		c.reason, c.msg = "Pending", "the module waits for its run"
	case Running:
		c.reason, c.msg = "Progressing", "the module runs"
	case WaitingForRequirement:
		c.reason, c.msg = "WaitingForRequirement", "the module's run waits for the modules it requires"
	case WaitingForReadiness:
		c.reason, c.msg = "WaitingForReadiness", "the release's workloads are not ready yet"
	case Retrying:
		c.reason, c.msg = "ProgressingWithRetry", "the last run failed and is retried"
	default:
		return cond{}, false
	}
	return c, true
}

func stalled(p Phase) (cond, bool) {
	c := cond{typ: ConditionStalled, status: metav1.ConditionTrue}
	switch p {
	case Stalled:
		c.reason, c.msg = "RetriesExceeded", "the run failed and is held until something changes for the module"
	case Unseen:
		c.reason, c.msg = "DirUnseen", "the module's dir cannot be seen; it is kept as it was"
	default:
		return cond{}, false
	}
	return c, true
}

// ready: True once the module is as it should be (disabled and in
// maintenance included: nothing is in progress), Unknown while it
// progresses, False when it fails.
func ready(p Phase) cond {
	c := cond{typ: ConditionReady, status: metav1.ConditionTrue}
	switch p {
	case Ready:
		c.reason, c.msg = "Succeeded", "the module's last run succeeded"
	case Disabled:
		c.reason, c.msg = "Disabled", "the module is disabled"
	case Maintenance:
		c.reason, c.msg = "Maintenance", "the module is in maintenance: helm does not run"
	case Retrying:
		c.status, c.reason, c.msg = metav1.ConditionFalse, "RunFailed", "the module's last run failed"
	case Stalled:
		c.status, c.reason, c.msg = metav1.ConditionFalse, "RetriesExceeded", "the module's run failed"
	case Unseen:
		c.status, c.reason, c.msg = metav1.ConditionFalse, "DirUnseen", "the module's dir cannot be seen"
	default:
		r, _ := reconciling(p)
		c.status, c.reason, c.msg = metav1.ConditionUnknown, r.reason, r.msg
	}
	return c
}

// enabled says which layer decided the module's enabled state.
func enabled(in Input) cond {
	c := cond{typ: ConditionEnabled, status: metav1.ConditionTrue}
	switch {
	case in.Global:
		c.reason, c.msg = "Global", "global hooks are always enabled"
	case !in.Decided:
		c.status, c.reason, c.msg = metav1.ConditionUnknown, "NotDiscovered", "no discovery has decided yet"
	default:
		if !in.Enabled {
			c.status = metav1.ConditionFalse
		}
		c.reason = LayerReason(in.EnabledBy)
		c.msg = "decided by the " + layerName(in.EnabledBy)
	}
	return c
}

// LayerReason is a layer's name as a CamelCase reason: "enabled script" is
// EnabledScript, "" is Default.
func LayerReason(layer string) string {
	var b strings.Builder
	for word := range strings.FieldsFuncSeq(layer, func(r rune) bool {
		return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9')
	}) {
		b.WriteString(strings.ToUpper(word[:1]) + word[1:])
	}
	if b.Len() == 0 {
		return "Default"
	}
	return b.String()
}

func layerName(layer string) string {
	if layer == "" {
		return "default"
	}
	return layer
}

func requirements(in Input) cond {
	if len(in.Unmet) > 0 {
		return cond{typ: ConditionRequirementsMet, status: metav1.ConditionFalse, reason: "RequirementsUnmet",
			msg: "requirements of module.yaml are not met"}
	}
	return cond{typ: ConditionRequirementsMet, status: metav1.ConditionTrue, reason: "RequirementsMet",
		msg: "requirements of module.yaml are met"}
}

func drifted(in Input) cond {
	switch {
	case in.GivenUp > 0:
		return cond{typ: ConditionDrifted, status: metav1.ConditionTrue, reason: "DriftRestoreGivenUp",
			msg: "another writer sets drifted fields back after each restore"}
	case in.Drifted > 0:
		return cond{typ: ConditionDrifted, status: metav1.ConditionTrue, reason: "DriftDetected",
			msg: "objects of the release differ from its manifest"}
	}
	return cond{typ: ConditionDrifted, status: metav1.ConditionFalse, reason: "NoDriftDetected",
		msg: "the release's objects hold what its manifest sets"}
}

func webhooks(in Input) cond {
	if in.WebhooksReady >= in.Webhooks {
		return cond{typ: ConditionWebhooksRegistered, status: metav1.ConditionTrue, reason: "Registered",
			msg: "the module's webhooks are served"}
	}
	return cond{typ: ConditionWebhooksRegistered, status: metav1.ConditionFalse, reason: "WaitingForSynchronization",
		msg: "some webhooks wait for their hook's Synchronization"}
}
