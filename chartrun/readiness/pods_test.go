package readiness_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/chartrun/readiness"
)

// pod is a Pod with the given status fields.
func pod(name, status string) string {
	return `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"` + name + `","namespace":"shop","labels":{"app":"web"}},
	"spec":{"containers":[{"name":"web","image":"nope:1"}]},"status":{` + status + `}}`
}

const (
	imagePull = `"phase":"Pending","conditions":[{"type":"PodScheduled","status":"True"},{"type":"Ready","status":"False","reason":"ContainersNotReady"}],
		"containerStatuses":[{"name":"web","image":"nope:1","imageID":"","ready":false,"restartCount":0,"started":false,
		"state":{"waiting":{"reason":"ImagePullBackOff","message":"Back-off pulling image \"nope:1\""}}}]`
	crashLoop = `"phase":"Running","containerStatuses":[{"name":"web","ready":false,"restartCount":5,
		"state":{"waiting":{"reason":"CrashLoopBackOff","message":"back-off 2m40s restarting failed container=web pod=web-5d8f-def_shop(1f)"}},
		"lastState":{"terminated":{"exitCode":1,"reason":"Error","startedAt":"2026-05-01T10:00:00Z","finishedAt":"2026-05-01T10:00:01Z"}}}]`
	oomKilled = `"phase":"Running","containerStatuses":[{"name":"web","ready":false,"restartCount":1,
		"state":{"running":{"startedAt":"2026-05-01T10:01:00Z"}},
		"lastState":{"terminated":{"exitCode":137,"reason":"OOMKilled","startedAt":"2026-05-01T10:00:00Z","finishedAt":"2026-05-01T10:00:50Z"}}}]`
	initWaiting = `"phase":"Pending","initContainerStatuses":[{"name":"config","ready":false,"restartCount":0,
		"state":{"waiting":{"reason":"CreateContainerConfigError","message":"secret \"web-db\" not found"}}}],
		"containerStatuses":[{"name":"web","ready":false,"restartCount":0,"state":{"waiting":{"reason":"PodInitializing"}}}]`
	initFailed = `"phase":"Pending","initContainerStatuses":[{"name":"migrate","ready":false,"restartCount":2,
		"state":{"terminated":{"exitCode":2,"reason":"Error","message":"relation \"users\"\ndoes not exist"}}}]`
	unschedulable = `"phase":"Pending","conditions":[{"type":"PodScheduled","status":"False","reason":"Unschedulable",
		"message":"0/3 nodes are available: 3 Insufficient memory. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod."}]`
	evicted = `"phase":"Failed","reason":"Evicted","message":"The node was low on resource: memory."`
	healthy = `"phase":"Running","conditions":[{"type":"Ready","status":"True"}],
		"containerStatuses":[{"name":"web","ready":true,"restartCount":0,"state":{"running":{"startedAt":"2026-05-01T10:00:00Z"}}}]`
	succeeded = `"phase":"Succeeded","containerStatuses":[{"name":"web","ready":false,"restartCount":0,
		"state":{"terminated":{"exitCode":0,"reason":"Completed"}}}]`
	probeFailing = `"phase":"Running","containerStatuses":[{"name":"web","ready":false,"restartCount":0,"state":{"running":{"startedAt":"2026-05-01T10:00:00Z"}}}]`
)

func TestPodReasons(t *testing.T) {
	for _, tc := range []struct {
		name string
		pods []string
		max  int
		want []string
	}{
		{"image pull back-off", []string{pod("web-5d8f-abc", imagePull)}, 5,
			[]string{`pod web-5d8f-abc: container web waiting: ImagePullBackOff (Back-off pulling image "nope:1")`}},
		{"crash loop with last exit", []string{pod("web-5d8f-def", crashLoop)}, 5,
			[]string{`pod web-5d8f-def: container web waiting: CrashLoopBackOff (back-off 2m40s restarting failed container=web pod=web-5d8f-def_shop(1f)); last terminated: Error (exit code 1)`}},
		{"OOMKilled, running again", []string{pod("web-5d8f-ghi", oomKilled)}, 5,
			[]string{`pod web-5d8f-ghi: container web running, not ready; last terminated: OOMKilled (exit code 137)`}},
		{"init container waiting, PodInitializing skipped", []string{pod("web-5d8f-jkl", initWaiting)}, 5,
			[]string{`pod web-5d8f-jkl: init container config waiting: CreateContainerConfigError (secret "web-db" not found)`}},
		{"init container failed, message on one line", []string{pod("web-5d8f-mno", initFailed)}, 5,
			[]string{`pod web-5d8f-mno: init container migrate terminated: Error (exit code 2): relation "users" does not exist`}},
		{"init container still running", []string{pod("web-5d8f-zzz", `"phase":"Pending","initContainerStatuses":[{"name":"migrate","ready":false,"state":{"running":{"startedAt":"2026-05-01T10:00:00Z"}}}]`)}, 5,
			[]string{`pod web-5d8f-zzz: init container migrate running`}},
		{"unschedulable", []string{pod("web-5d8f-pqr", unschedulable)}, 5,
			[]string{`pod web-5d8f-pqr: not scheduled: Unschedulable (0/3 nodes are available: 3 Insufficient memory. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.)`}},
		{"evicted", []string{pod("web-5d8f-stu", evicted)}, 5,
			[]string{`pod web-5d8f-stu: Evicted (The node was low on resource: memory.)`}},
		{"not ready without a cause in the status", []string{pod("web-5d8f-vwx", probeFailing)}, 5,
			[]string{`pod web-5d8f-vwx: container web running, not ready`}},
		{"healthy and succeeded pods say nothing", []string{pod("web-1", healthy), pod("migrate-1", succeeded)}, 5, nil},
		{"duplicates once, sorted", []string{pod("web-b", imagePull), pod("web-a", imagePull), pod("web-b", imagePull)}, 5,
			[]string{
				`pod web-a: container web waiting: ImagePullBackOff (Back-off pulling image "nope:1")`,
				`pod web-b: container web waiting: ImagePullBackOff (Back-off pulling image "nope:1")`,
			}},
		{"cut at max", []string{pod("web-a", imagePull), pod("web-b", imagePull), pod("web-c", imagePull), pod("web-d", imagePull)}, 3,
			[]string{
				`pod web-a: container web waiting: ImagePullBackOff (Back-off pulling image "nope:1")`,
				`pod web-b: container web waiting: ImagePullBackOff (Back-off pulling image "nope:1")`,
				`and 2 more`,
			}},
		{"exactly max is not cut", []string{pod("web-a", imagePull), pod("web-b", imagePull)}, 2,
			[]string{
				`pod web-a: container web waiting: ImagePullBackOff (Back-off pulling image "nope:1")`,
				`pod web-b: container web waiting: ImagePullBackOff (Back-off pulling image "nope:1")`,
			}},
		{"no limit", []string{pod("web-a", imagePull), pod("web-b", unschedulable)}, 0,
			[]string{
				`pod web-a: container web waiting: ImagePullBackOff (Back-off pulling image "nope:1")`,
				`pod web-b: not scheduled: Unschedulable (0/3 nodes are available: 3 Insufficient memory. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.)`,
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var pods []map[string]any
			for _, body := range tc.pods {
				pods = append(pods, object(t, body))
			}
			if got := readiness.PodReasons(pods, tc.max); !slices.Equal(got, tc.want) {
				t.Errorf("PodReasons:\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestPodReasonsUnreadable(t *testing.T) {
	got := readiness.PodReasons([]map[string]any{object(t, pod("web-x", `"containerStatuses":"oops"`))}, 5)
	if len(got) != 1 || !strings.HasPrefix(got[0], `pod web-x: status unreadable: decode Pod "web-x": `) {
		t.Errorf("PodReasons = %q, want one unreadable line", got)
	}
}
