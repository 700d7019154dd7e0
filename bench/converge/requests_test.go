package main

import "testing"

func TestParseRequestCounts(t *testing.T) {
	text := `# HELP apiserver_request_total x
apiserver_request_total{code="201",component="apiserver",dry_run="",group="",resource="secrets",scope="resource",subresource="",verb="POST",version="v1"} 3
apiserver_request_total{code="409",component="apiserver",dry_run="",group="",resource="secrets",scope="resource",subresource="",verb="POST",version="v1"} 1
apiserver_request_total{code="200",component="apiserver",dry_run="",group="",resource="pods",scope="resource",subresource="status",verb="PUT",version="v1"} 2
apiserver_request_duration_seconds_count{verb="GET"} 9
`
	got := parseRequestCounts(text)
	if got["POST secrets"] != 4 || got["PUT pods/status"] != 2 || len(got) != 2 {
		t.Fatalf("counts = %v, want POST secrets 4 and PUT pods/status 2 only", got)
	}
	diff := got.since(requestCounts{"POST secrets": 1, "PUT pods/status": 2})
	if diff["POST secrets"] != 3 || len(diff) != 1 {
		t.Fatalf("since = %v, want POST secrets 3 only", diff)
	}
	if line := diff.line(3); line != "apiserver requests 3 (1.0/module: POST secrets 1.0)" {
		t.Fatalf("line = %q", line)
	}
}

func TestObjectsLine(t *testing.T) {
	c := requestCounts{"POST modules": 2, "PATCH modules/status": 2, "GET modules": 5, "POST events": 1,
		"PATCH events": 1, "POST secrets": 9}
	if got, want := c.objectsLine(2), "Module object writes 4 (2.00/module), Event writes 2 (1.00/module)"; got != want {
		t.Fatalf("objectsLine = %q, want %q", got, want)
	}
}
