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
	list := append(phaseConditions(phase), enabled(in))
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

// phaseConditions are the kstatus conditions of a phase: Ready, after
// Reconciling (present only while True) when the module progresses, or
// Stalled (likewise) when it is held. Ready is True once the module is as
// it should be (disabled and in maintenance included: nothing is in
// progress), Unknown while it progresses, False when it fails.
func phaseConditions(p Phase) []cond {
	progressing := func(reason, msg string) []cond {
		return []cond{{ConditionReconciling, reason, msg, metav1.ConditionTrue},
			{ConditionReady, reason, msg, metav1.ConditionUnknown}}
	}
	held := func(reason, msg, readyMsg string) []cond {
		return []cond{{ConditionStalled, reason, msg, metav1.ConditionTrue},
			{ConditionReady, reason, readyMsg, metav1.ConditionFalse}}
	}
	ready := func(reason, msg string) []cond { return []cond{{ConditionReady, reason, msg, metav1.ConditionTrue}} }
	switch p {
	case Pending:
		return progressing("Pending", "the module waits for its run")
	case Running:
		return progressing("Progressing", "the module runs")
	case WaitingForRequirement:
		return progressing("WaitingForRequirement", "the module's run waits for the modules it requires")
	case WaitingForReadiness:
		return progressing("WaitingForReadiness", "the release's workloads are not ready yet")
	case Retrying:
		return []cond{{ConditionReconciling, "ProgressingWithRetry", "the last run failed and is retried", metav1.ConditionTrue},
			{ConditionReady, "RunFailed", "the module's last run failed", metav1.ConditionFalse}}
	case Stalled:
		return held("RetriesExceeded", "the run failed and is held until something changes for the module",
			"the module's run failed")
	case Unseen:
		return held("DirUnseen", "the module's dir cannot be seen; it is kept as it was", "the module's dir cannot be seen")
	case Disabled:
		return ready("Disabled", "the module is disabled")
	case Maintenance:
		return ready("Maintenance", "the module is in maintenance: helm does not run")
	}
	return ready("Succeeded", "the module's last run succeeded")
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
