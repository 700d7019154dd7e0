package bctx

import (
	"encoding/json"
	"testing"
)

func TestUnmarshalReadsWhatMarshalWrites(t *testing.T) {
	pod := ObjectAndFilterResult{Object: json.RawMessage(`{"kind":"Pod"}`), FilterResult: json.RawMessage(`null`)}
	in := []Context{
		Order("beforeHelm", Snapshots{"pods": {pod}, "none": {}}),
		Sync("pods", []ObjectAndFilterResult{pod}, nil),
		WatchEventContext("pods", "Deleted", ObjectAndFilterResult{Object: json.RawMessage(`null`), FilterResult: json.RawMessage(`""`)}, Snapshots{}),
		ScheduleTick("tick", nil),
		GroupContext("pods", "g", Snapshots{"pods": {pod}}),
	}
	data := Marshal(in)
	out, err := Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	sameJSON(t, Marshal(out), string(data))
	if _, err := Unmarshal([]byte(`{"binding":"x"}`)); err == nil {
		t.Error("an object instead of an array was read")
	}
}

func TestRefillGivesEveryContextTheCurrentSnapshots(t *testing.T) {
	old := ObjectAndFilterResult{FilterResult: json.RawMessage(`"old"`)}
	cur := ObjectAndFilterResult{FilterResult: json.RawMessage(`"new"`)}
	current := Snapshots{"pods": {cur}, "cms": {}, "secrets": {cur, cur}}
	names := func(c Context) ([]string, bool) {
		switch c.Binding {
		case "pods":
			return []string{"pods", "cms"}, true
		case "grouped", "grouped2":
			return []string{"secrets"}, true
		}
		return nil, false
	}
	in := []Context{
		WatchEventContext("pods", "Added", old, Snapshots{"pods": {old}}),
		WatchEventContext("other", "Added", old, nil),
		GroupContext("grouped", "g", Snapshots{"secrets": {old}}),
		GroupContext("grouped2", "g", nil), // the same group next: the first is dropped
		ScheduleTick("pods", Snapshots{}),
		GroupContext("grouped", "g", nil),
	}
	got := Marshal(Refill(in, names, current))
	sameJSON(t, got, `[
	 {"binding":"pods","type":"Event","watchEvent":"Added","filterResult":"old","snapshots":{"pods":[{"filterResult":"new"}],"cms":[]}},
	 {"binding":"other","type":"Event","watchEvent":"Added","filterResult":"old"},
	 {"binding":"grouped2","type":"Group","groupName":"g","snapshots":{"secrets":[{"filterResult":"new"},{"filterResult":"new"}]}},
	 {"binding":"pods","type":"Schedule","snapshots":{"pods":[{"filterResult":"new"}],"cms":[]}},
	 {"binding":"grouped","type":"Group","groupName":"g","snapshots":{"secrets":[{"filterResult":"new"},{"filterResult":"new"}]}}]`)
}

func TestPickGivesEmptyListsForBindingsWithoutObjects(t *testing.T) {
	sameJSON(t, Marshal([]Context{Order("afterHelm", Pick(nil, []string{"a"}))}), `[{"binding":"afterHelm","snapshots":{"a":[]}}]`)
	sameJSON(t, Marshal([]Context{Order("afterHelm", Pick(nil, nil))}), `[{"binding":"afterHelm","snapshots":{}}]`)
}
