package readiness

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// PodReasons summarises why pods are not ready, for the error of a wait that
// timed out. From pods (JSON-decoded, as listed for a workload's selector) it
// collects the reasons and messages of waiting containers (ErrImagePull,
// ImagePullBackOff, CrashLoopBackOff, CreateContainerConfigError...), init
// containers included, of containers that ended in error (Error, OOMKilled,
// with the exit code; also as the last state of a restarting container), of
// running containers that are not ready, of pods that cannot be scheduled and
// of evicted pods. Lines read like
//
//	pod web-5d8f-abc: container web waiting: ImagePullBackOff (Back-off pulling image "nope:1")
//
// They are distinct and sorted, and at most limit of them are returned: when
// there are more, the first limit-1 followed by "and N more". A limit <= 0
// means no limit.
func PodReasons(pods []map[string]any, limit int) []string {
	set := map[string]bool{}
	for _, obj := range pods {
		for _, line := range podLines(obj) {
			set[line] = true
		}
	}
	lines := slices.Sorted(maps.Keys(set))
	if limit <= 0 || len(lines) <= limit {
		return lines
	}
	kept := lines[:limit-1]
	return append(kept, fmt.Sprintf("and %d more", len(lines)-len(kept)))
}

// podLines explains one pod, one line per finding, each prefixed with the pod's name.
func podLines(obj map[string]any) []string {
	var pod corev1.Pod
	if err := decode(obj, &pod); err != nil {
		name, _, _ := unstructured.NestedString(obj, "metadata", "name")
		return []string{fmt.Sprintf("pod %s: status unreadable: %v", name, err)}
	}
	var found []string
	if s := pod.Status; s.Reason != "" {
		found = append(found, withMessage(s.Reason, s.Message))
	}
	for _, c := range pod.Status.Conditions {
		if c.Type == corev1.PodScheduled && c.Status == corev1.ConditionFalse {
			found = append(found, "not scheduled: "+withMessage(c.Reason, c.Message))
		}
	}
	for _, cs := range pod.Status.InitContainerStatuses {
		if text, ok := containerText(cs, true); ok {
			found = append(found, "init container "+cs.Name+" "+text)
		}
	}
	for _, cs := range pod.Status.ContainerStatuses {
		if text, ok := containerText(cs, false); ok {
			found = append(found, "container "+cs.Name+" "+text)
		}
	}
	for i, f := range found {
		found[i] = "pod " + pod.Name + ": " + f
	}
	return found
}

// containerText says what holds a container back, and false when nothing
// does. PodInitializing is skipped: it only says an init container is not
// done, and that container has its own line.
func containerText(cs corev1.ContainerStatus, init bool) (string, bool) {
	var text string
	switch st := cs.State; {
	case st.Waiting != nil && st.Waiting.Reason != "PodInitializing":
		text = "waiting: " + withMessage(st.Waiting.Reason, st.Waiting.Message)
	case st.Terminated != nil && st.Terminated.ExitCode != 0:
		return "terminated: " + terminated(st.Terminated), true
	case st.Running != nil && init:
		text = "running"
	case st.Running != nil && !cs.Ready:
		text = "running, not ready"
	default:
		return "", false
	}
	if last := cs.LastTerminationState.Terminated; last != nil && last.ExitCode != 0 {
		text += "; last terminated: " + terminated(last)
	}
	return text, true
}

// terminated reads "OOMKilled (exit code 137)", with the message when there is one.
func terminated(t *corev1.ContainerStateTerminated) string {
	reason := t.Reason
	if reason == "" {
		reason = "terminated"
	}
	text := fmt.Sprintf("%s (exit code %d)", reason, t.ExitCode)
	if msg := oneLine(t.Message); msg != "" {
		text += ": " + msg
	}
	return text
}

// withMessage reads "Reason (message)", or either one alone.
func withMessage(reason, message string) string {
	message = oneLine(message)
	switch {
	case message == "":
		return reason
	case reason == "":
		return message
	}
	return reason + " (" + message + ")"
}

// oneLine keeps a multi-line message on the one line of its finding.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
