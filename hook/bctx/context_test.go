package bctx

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

func sameJSON(t *testing.T, got []byte, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, got)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("bad want: %v", err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestV1Contexts(t *testing.T) {
	pod := ObjectAndFilterResult{Object: json.RawMessage(`{"kind":"Pod","metadata":{"name":"p1"}}`), FilterResult: json.RawMessage(`{"app":"x"}`)}
	noObject := ObjectAndFilterResult{FilterResult: json.RawMessage(`"only"`)}
	nullFilter := ObjectAndFilterResult{Object: json.RawMessage(`{}`), FilterResult: json.RawMessage(`null`)}
	snaps := Snapshots{"pods": {pod}, "empty": nil}
	cases := []struct {
		name string
		in   []Context
		want string
	}{
		// spec/LIFECYCLE-STEPS.md step 1 and DESIGN §2: onStartup gets [{"binding":"onStartup"}].
		{"onStartup", []Context{Order("onStartup", nil)}, `[{"binding":"onStartup"}]`},
		// LIFECYCLE-STEPS.md step 5: {"binding":"beforeHelm"} with an extra field "snapshots".
		{"beforeHelm with snapshots", []Context{Order("beforeHelm", snaps)},
			`[{"binding":"beforeHelm","snapshots":{"empty":[],"pods":[{"object":{"kind":"Pod","metadata":{"name":"p1"}},"filterResult":{"app":"x"}}]}}]`},
		{"afterHelm no snapshots", []Context{Order("afterHelm", nil)}, `[{"binding":"afterHelm"}]`},
		// LIFECYCLE-STEPS.md step 2: "type": "Synchronization", "objects" all objects, "snapshots".
		{"synchronization", []Context{Sync("pods", []ObjectAndFilterResult{pod, noObject}, Snapshots{"cms": {}})},
			`[{"binding":"pods","type":"Synchronization","objects":[{"object":{"kind":"Pod","metadata":{"name":"p1"}},"filterResult":{"app":"x"}},{"filterResult":"only"}],"snapshots":{"cms":[]}}]`},
		{"synchronization of nothing", []Context{Sync("pods", nil, nil)}, `[{"binding":"pods","type":"Synchronization","objects":[]}]`},
		// LIFECYCLE-STEPS.md step 9: "type": "Event", "object", "filterResult", "snapshots".
		{"event", []Context{WatchEventContext("pods", "Added", pod, Snapshots{"cms": {noObject}})},
			`[{"binding":"pods","type":"Event","watchEvent":"Added","object":{"kind":"Pod","metadata":{"name":"p1"}},"filterResult":{"app":"x"},"snapshots":{"cms":[{"filterResult":"only"}]}}]`},
		{"event filter null", []Context{WatchEventContext("p", "Deleted", nullFilter, nil)},
			`[{"binding":"p","type":"Event","watchEvent":"Deleted","object":{},"filterResult":null}]`},
		{"event filter only", []Context{WatchEventContext("p", "Modified", noObject, nil)},
			`[{"binding":"p","type":"Event","watchEvent":"Modified","filterResult":"only"}]`},
		// LIFECYCLE-STEPS.md step 11: schedule with "snapshots".
		{"schedule", []Context{ScheduleTick("every-minute", Snapshots{"pods": {pod}})},
			`[{"binding":"every-minute","type":"Schedule","snapshots":{"pods":[{"object":{"kind":"Pod","metadata":{"name":"p1"}},"filterResult":{"app":"x"}}]}}]`},
		{"group", []Context{GroupContext("pods", "main-group", nil)}, `[{"binding":"pods","type":"Group","groupName":"main-group","snapshots":{}}]`},
		{"several", []Context{Order("onStartup", nil), ScheduleTick("s", nil)}, `[{"binding":"onStartup"},{"binding":"s","type":"Schedule"}]`},
		{"empty array", nil, `[]`},
		{"escaped name", []Context{Order("a \"quoted\" <name>\u007f\n", nil)}, `[{"binding":"a \"quoted\" <name>\u007f\n"}]`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sameJSON(t, Marshal(tc.in), tc.want)
			sameAsStream(t, tc.in)
		})
	}
}

// sameAsStream checks that Array.Encode writes what Marshal returns, and
// that its sizes add up to it.
func sameAsStream(t *testing.T, contexts []Context) {
	t.Helper()
	var buf bytes.Buffer
	total, sizes, err := Array(contexts).Encode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if want := Marshal(contexts); !bytes.Equal(buf.Bytes(), want) || total != int64(len(want)) {
		t.Fatalf("Encode wrote %d (said %d):\n%s\nMarshal: %s", buf.Len(), total, buf.Bytes(), want)
	}
	sum := int64(2)
	for _, n := range sizes {
		sum += n
	}
	if sum != total {
		t.Fatalf("sizes %v add up to %d with the brackets, want %d", sizes, sum, total)
	}
}

func TestSizesLargest(t *testing.T) {
	name, n := Sizes{"a": 10, "b": 30, "c": 30}.Largest()
	if name != "b" || n != 30 {
		t.Fatalf("Largest = %s %d, want b 30 (ties to the first name)", name, n)
	}
}

func TestContextMarshalJSON(t *testing.T) {
	b, err := json.Marshal(map[string]any{"ctx": Order("onStartup", nil)})
	if err != nil {
		t.Fatal(err)
	}
	sameJSON(t, b, `{"ctx":{"binding":"onStartup"}}`)
}

func TestV0Contexts(t *testing.T) {
	cases := []struct {
		name string
		in   []V0Context
		want string
	}{
		// spec/HOOKS.md: "At 12:02 this hook will be executed with the following binding context".
		{"HOOKS.md named schedule", []V0Context{V0Binding("incremental")}, `[{ "binding": "incremental"}]`},
		{"HOOKS.md unnamed schedule", []V0Context{V0Binding("schedule")}, `[{ "binding": "schedule"}]`},
		{"onStartup", []V0Context{V0Binding("onStartup")}, `[{"binding":"onStartup"}]`},
		{"kubernetes add", []V0Context{V0Event("onKubernetesEvent", "Added", "default", "Pod", "p1")},
			`[{"binding":"onKubernetesEvent","resourceEvent":"add","resourceNamespace":"default","resourceKind":"Pod","resourceName":"p1"}]`},
		{"kubernetes update, cluster-scoped", []V0Context{V0Event("nodes", "Modified", "", "Node", "n1")},
			`[{"binding":"nodes","resourceEvent":"update","resourceKind":"Node","resourceName":"n1"}]`},
		{"kubernetes delete", []V0Context{V0Event("x", "Deleted", "ns", "Secret", "s")},
			`[{"binding":"x","resourceEvent":"delete","resourceNamespace":"ns","resourceKind":"Secret","resourceName":"s"}]`},
		{"empty", nil, `[]`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := MarshalV0(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			sameJSON(t, got, tc.want)
		})
	}
}
