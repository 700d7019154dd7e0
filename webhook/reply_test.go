package webhook

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	admissionv1 "k8s.io/api/admission/v1"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

func TestAdmissionResponse(t *testing.T) {
	for _, tc := range []struct {
		name   string
		file   string
		runErr error
		want   string
	}{
		{"allowed", `{"allowed":true}`, nil, `{"uid":"u1","allowed":true}`},
		{"denied with message", `{"allowed":false,"message":"no latest tag"}`, nil,
			`{"uid":"u1","allowed":false,"status":{"metadata":{},"message":"no latest tag","code":403}}`},
		{"message ignored when allowed", `{"allowed":true,"message":"hi","warnings":["w"]}`, nil,
			`{"uid":"u1","allowed":true,"warnings":["w"]}`},
		{"warnings on deny", `{"allowed":false,"warnings":["w1","w2"]}`, nil,
			`{"uid":"u1","allowed":false,"status":{"metadata":{},"code":403},"warnings":["w1","w2"]}`},
		{"patch", `{"allowed":true,"patch":"W10="}`, nil,
			`{"uid":"u1","allowed":true,"patch":"W10=","patchType":"JSONPatch"}`},
		{"hook failed", `{"allowed":true}`, errors.New("exit status 1"),
			`{"uid":"u1","allowed":false,"status":{"metadata":{},"message":"Hook failed","code":403}}`},
		{"not json", "{\"allowed\":true,\"patch\":\"W1\n0=\"}", nil,
			`{"uid":"u1","allowed":false,"status":{"metadata":{},"message":"Hook failed","code":403}}`},
		{"empty", " \n", nil,
			`{"uid":"u1","allowed":false,"status":{"metadata":{},"message":"handle AdmissionReview: hook task prop error","code":500}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, _ := AdmissionResponse("u1", []byte(tc.file), tc.runErr)
			got, _ := json.Marshal(resp)
			if string(got) != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestAdmissionOtherReplies(t *testing.T) {
	nohook, _ := json.Marshal(AdmissionNoHook("u", "mod", "x-example-com"))
	if want := `{"uid":"u","allowed":false,"status":{"metadata":{},"message":"handle AdmissionReview: no hook found for 'mod' 'x-example-com'","code":500}}`; string(nohook) != want {
		t.Errorf("no hook: %s", nohook)
	}
	a := Admission{Name: "x.example.com", Hook: "h.sh"}
	if r := AdmissionTimeout("u", a, 2*time.Second); r.Allowed || r.Result.Code != 500 || !strings.Contains(r.Result.Message, "within 2s") {
		t.Errorf("timeout, Fail: %+v", r)
	}
	ignore := admissionregistrationv1.Ignore
	a.FailurePolicy = &ignore
	if r := AdmissionTimeout("u", a, 2*time.Second); !r.Allowed || len(r.Warnings) != 1 {
		t.Errorf("timeout, Ignore: %+v", r)
	}
	in := &admissionv1.AdmissionReview{Request: &admissionv1.AdmissionRequest{UID: "u"}}
	in.APIVersion, in.Kind = "admission.k8s.io/v1beta1", "AdmissionReview"
	resp, failure := AdmissionResponse("u", []byte(`{"allowed":true}`), nil)
	out, _ := json.Marshal(AdmissionReply(in, resp))
	if failure != FailureNone {
		t.Errorf("failure %q", failure)
	}
	if want := `{"kind":"AdmissionReview","apiVersion":"admission.k8s.io/v1beta1","response":{"uid":"u","allowed":true}}`; string(out) != want {
		t.Errorf("reply: %s", out)
	}
}

func TestConvertedObjects(t *testing.T) {
	for _, tc := range []struct {
		name    string
		file    string
		runErr  error
		want    int
		wantErr string
	}{
		{"ok", `{"convertedObjects":[{"apiVersion":"g/v2"},{"apiVersion":"g/v2"}]}`, nil, 2, ""},
		{"failed message", `{"failedMessage":"cannot"}`, nil, 1, "cannot"},
		{"count", `{"convertedObjects":[{}]}`, nil, 2, "hook returned 1 objects instead of 2"},
		{"hook failed", `{}`, errors.New("exit 1"), 1, "Hook failed to convert to g/v2"},
		{"not json", `{`, nil, 1, "Hook failed to convert to g/v2"},
		{"empty", ``, nil, 1, MsgConversionEmpty},
	} {
		t.Run(tc.name, func(t *testing.T) {
			objs, err := ConvertedObjects([]byte(tc.file), tc.runErr, tc.want, "g/v2")
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || len(objs) != tc.want {
				t.Fatalf("objs %d, err %v", len(objs), err)
			}
		})
	}
}

func TestConversionReplies(t *testing.T) {
	ok, _ := json.Marshal(ConversionSuccess("u", []runtime.RawExtension{{Raw: []byte(`{"apiVersion":"g/v2"}`)}}))
	if want := `{"uid":"u","convertedObjects":[{"apiVersion":"g/v2"}],"result":{"metadata":{},"status":"Success"}}`; string(ok) != want {
		t.Errorf("success: %s", ok)
	}
	bad, _ := json.Marshal(ConversionFailure("u", errors.New("nope")))
	if want := `{"uid":"u","convertedObjects":[],"result":{"metadata":{},"status":"Failure","message":"nope"}}`; string(bad) != want {
		t.Errorf("failure: %s", bad)
	}
}

func TestPlanConversion(t *testing.T) {
	raw := func(v string) runtime.RawExtension {
		return runtime.RawExtension{Raw: []byte(`{"apiVersion":"` + v + `"}`)}
	}
	objs := []runtime.RawExtension{raw("g/v1"), raw("g/v3"), raw("g/v1"), raw("g/v2")}
	bindings := []Conversion{conv("a", "v1>v2"), conv("b", "v2>v3")}
	groups, err := PlanConversion("c.g", bindings, objs, "g/v3")
	if err != nil {
		t.Fatal(err)
	}
	got := ""
	for _, g := range groups {
		got += g.From + ":" + strings.Trim(strings.Join(strings.Fields(fmtInts(g.Indexes)), ","), "[]") + ":" + chainString(g.Steps) + ";"
	}
	if want := "g/v1:0,2:a:v1>v2 b:v2>v3;g/v3:1:;g/v2:3:b:v2>v3;"; got != want {
		t.Errorf("plan %q, want %q", got, want)
	}
	if _, err := PlanConversion("c.g", bindings, objs, "g/v9"); err == nil || err.Error() != "Conversion c.g to g/v9 was not successful" {
		t.Errorf("no chain: %v", err)
	}
}

func fmtInts(xs []int) string {
	b, _ := json.Marshal(xs)
	return strings.ReplaceAll(string(b), ",", " ")
}
