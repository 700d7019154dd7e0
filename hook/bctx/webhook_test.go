package bctx

import (
	"encoding/json"
	"errors"
	"testing"

	admissionv1 "k8s.io/api/admission/v1"
	authenticationv1 "k8s.io/api/authentication/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// podCreate is an AdmissionRequest as the apiserver sends it, spacing
// included.
const podCreate = `{"uid":"705ab4f5-6393-11e8-b7cc-42010a800002",
  "kind":{"group":"","version":"v1","kind":"Pod"},"resource":{"group":"","version":"v1","resource":"pods"},
  "requestKind":{"group":"","version":"v1","kind":"Pod"},"requestResource":{"group":"","version":"v1","resource":"pods"},
  "name":"web","namespace":"default","operation":"CREATE",
  "userInfo":{"username":"admin","groups":["system:authenticated"]},
  "object":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web"},"spec":{"containers":[{"image":"registry.example.com/web"}]}},
  "oldObject":null,"dryRun":false,"options":{"apiVersion":"meta.k8s.io/v1","kind":"CreateOptions"}}`

// The contexts of spec/WEBHOOKS.md §5, byte for byte.
func TestWebhookContextsGolden(t *testing.T) {
	pod := ObjectAndFilterResult{FilterResult: json.RawMessage(`{"name":"web"}`)}
	crontab := func(v, spec string) json.RawMessage {
		return json.RawMessage(`{"apiVersion":"stable.example.com/` + v + `","kind":"CronTab","metadata":{"name":"c1"},"spec":` + spec + `}`)
	}
	conversion := ConversionRequest{UID: "0000-1111", DesiredAPIVersion: "stable.example.com/v2",
		Objects: []json.RawMessage{crontab("v1", `{"cron":"* * * * *"}`), crontab("v1", `{"cron":"0 1 * * *"}`)}}
	cases := []struct {
		name string
		ctx  func() (Context, error)
		want string
	}{
		{"validating without snapshots", func() (Context, error) {
			return AdmissionContext("private-repo.example.com", Validating, json.RawMessage("\n "+podCreate+"\n"), nil)
		}, `[{"binding":"private-repo.example.com","type":"Validating","review":{"request":` + podCreate + `}}]`},
		{"mutating with snapshots", func() (Context, error) {
			return AdmissionContext("add-label.example.com", Mutating, json.RawMessage(`{"uid":"u1","operation":"UPDATE"}`),
				Snapshots{"pods": {pod}, "empty": {}})
		}, `[{"binding":"add-label.example.com","type":"Mutating","snapshots":{"empty":[],"pods":[{"filterResult":{"name":"web"}}]},"review":{"request":{"uid":"u1","operation":"UPDATE"}}}]`},
		{"a group with nothing in it", func() (Context, error) {
			return AdmissionContext("g.example.com", Validating, json.RawMessage(`{"uid":"u2"}`), Snapshots{})
		}, `[{"binding":"g.example.com","type":"Validating","snapshots":{},"review":{"request":{"uid":"u2"}}}]`},
		{"conversion", func() (Context, error) {
			return ConversionContext("crontabs", ConversionStep{FromVersion: "v1", ToVersion: "v2", Request: conversion}, nil)
		}, `[{"binding":"crontabs","type":"Conversion","fromVersion":"v1","toVersion":"v2","review":{"request":{"uid":"0000-1111","desiredAPIVersion":"stable.example.com/v2","objects":[` +
			`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"c1"},"spec":{"cron":"* * * * *"}},` +
			`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"c1"},"spec":{"cron":"0 1 * * *"}}]}}}]`},
		{"conversion step of a chain, with snapshots", func() (Context, error) {
			req := ConversionRequest{UID: "u3", DesiredAPIVersion: "stable.example.com/v3",
				Objects: []json.RawMessage{crontab("v2", `{}`)}}
			return ConversionContext("v2-to-v3", ConversionStep{FromVersion: "stable.example.com/v2", ToVersion: "v3", Request: req},
				Snapshots{"pods": {pod}})
		}, `[{"binding":"v2-to-v3","type":"Conversion","fromVersion":"stable.example.com/v2","toVersion":"v3","snapshots":{"pods":[{"filterResult":{"name":"web"}}]},` +
			`"review":{"request":{"uid":"u3","desiredAPIVersion":"stable.example.com/v3","objects":[{"apiVersion":"stable.example.com/v2","kind":"CronTab","metadata":{"name":"c1"},"spec":{}}]}}}]`},
		{"conversion of no objects", func() (Context, error) {
			return ConversionContext("c", ConversionStep{FromVersion: "v1", ToVersion: "v2",
				Request: ConversionRequest{UID: "u4", DesiredAPIVersion: "v2"}}, nil)
		}, `[{"binding":"c","type":"Conversion","fromVersion":"v1","toVersion":"v2","review":{"request":{"uid":"u4","desiredAPIVersion":"v2","objects":[]}}}]`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := tc.ctx()
			if err != nil {
				t.Fatal(err)
			}
			got := Marshal([]Context{c})
			if string(got) != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
			if !json.Valid(got) {
				t.Errorf("not JSON: %s", got)
			}
		})
	}
}

// A typed admission/v1 request marshals into the request a context takes.
func TestAdmissionContextOfATypedRequest(t *testing.T) {
	req := admissionv1.AdmissionRequest{UID: "u5", Kind: metav1.GroupVersionKind{Version: "v1", Kind: "Pod"},
		Operation: admissionv1.Create, UserInfo: authenticationv1.UserInfo{Username: "admin"},
		Object: runtime.RawExtension{Raw: []byte(`{"kind":"Pod"}`)}}
	raw, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	c, err := AdmissionContext("v.example.com", Validating, raw, nil)
	if err != nil {
		t.Fatal(err)
	}
	sameJSON(t, Marshal([]Context{c}), `[{"binding":"v.example.com","type":"Validating","review":{"request":{"uid":"u5",
		"kind":{"group":"","version":"v1","kind":"Pod"},"resource":{"group":"","version":"","resource":""},"operation":"CREATE",
		"userInfo":{"username":"admin"},"object":{"kind":"Pod"},"oldObject":null,"options":null}}}]`)
}

func TestWebhookContextErrors(t *testing.T) {
	for _, req := range []string{"", "  ", "null", `[{"uid":"x"}]`, `"uid"`, `{"uid":`, `{"a":1} {"b":2}`} {
		if _, err := AdmissionContext("v.example.com", Validating, json.RawMessage(req), nil); !errors.Is(err, ErrBadRequest) {
			t.Errorf("request %q: err = %v, want ErrBadRequest", req, err)
		}
	}
	for _, typ := range []Type{Event, Conversion, ""} {
		if _, err := AdmissionContext("v.example.com", typ, json.RawMessage(`{}`), nil); err == nil {
			t.Errorf("type %q: no error", typ)
		}
	}
	bad := ConversionRequest{Objects: []json.RawMessage{json.RawMessage(`{"kind":`)}}
	if _, err := ConversionContext("c", ConversionStep{Request: bad}, nil); err == nil {
		t.Error("a conversion request with an object that is not JSON: no error")
	}
}

// Webhook contexts read back as written, and a refill replaces their
// snapshots only.
func TestWebhookContextsUnmarshalAndRefill(t *testing.T) {
	admission, err := AdmissionContext("v.example.com", Validating, json.RawMessage(podCreate), Snapshots{"pods": {}})
	if err != nil {
		t.Fatal(err)
	}
	conversion, err := ConversionContext("c", ConversionStep{FromVersion: "v1", ToVersion: "v2",
		Request: ConversionRequest{UID: "u", DesiredAPIVersion: "v2"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	data := Marshal([]Context{admission, conversion})
	out, err := Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	if string(Marshal(out)) != string(data) {
		t.Errorf("read back\n%s\nwritten\n%s", Marshal(out), data)
	}
	cur := Snapshots{"pods": {{FilterResult: json.RawMessage(`"now"`)}}}
	names := func(c Context) ([]string, bool) { return []string{"pods"}, c.Type == Validating }
	refilled := Marshal(Refill(out, names, cur))
	want := `[{"binding":"v.example.com","type":"Validating","snapshots":{"pods":[{"filterResult":"now"}]},"review":{"request":` + podCreate + `}},` +
		`{"binding":"c","type":"Conversion","fromVersion":"v1","toVersion":"v2","review":{"request":{"uid":"u","desiredAPIVersion":"v2","objects":[]}}}]`
	if string(refilled) != want {
		t.Errorf("refilled\n%s\nwant\n%s", refilled, want)
	}
}
