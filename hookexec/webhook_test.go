package hookexec

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/hook/bctx"
	"github.com/addon-actors/addon-operator/hook/bindings"
)

// webhookRun runs hook for one webhook context, asking for the response
// files.
func webhookRun(t *testing.T, r *Runner, hook string, c bctx.Context) (Result, error) {
	t.Helper()
	return r.Run(context.Background(), Request{Hook: testHook(t, hook), BindingContext: bctx.Marshal([]bctx.Context{c}),
		Scope: PatchScope{RootKey: "someModule"}, WebhookResponses: true})
}

func admission(t *testing.T, binding string, typ bctx.Type, request string) bctx.Context {
	t.Helper()
	c, err := bctx.AdmissionContext(binding, typ, json.RawMessage(request), nil)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// The example hooks print configurations the parser takes, global and
// module alike.
func TestWebhookExampleHooksConfig(t *testing.T) {
	r := newRunner(t, Options{TmpDir: t.TempDir(), Environ: baseEnv()})
	for _, scope := range []bindings.Scope{bindings.ScopeGlobal, bindings.ScopeModule} {
		validating, err := r.Config(context.Background(), testHook(t, "validating-policy.sh"), scope)
		if err != nil || len(validating.Validating) != 1 || validating.Validating[0].Rules[0].Resources[0] != "pods" {
			t.Fatalf("%s validating: %+v, %v", scope, validating, err)
		}
		mutating, err := r.Config(context.Background(), testHook(t, "mutating-label.sh"), scope)
		if err != nil || len(mutating.Mutating) != 1 || mutating.Mutating[0].NamespaceSelector.MatchLabels["mutate"] != "yes" {
			t.Fatalf("%s mutating: %+v, %v", scope, mutating, err)
		}
		conversion, err := r.Config(context.Background(), testHook(t, "conversion-crontab.sh"), scope)
		if err != nil || len(conversion.Conversion) != 1 || conversion.Conversion[0].CRDName != "crontabs.stable.example.com" {
			t.Fatalf("%s conversion: %+v, %v", scope, conversion, err)
		}
	}
}

// A validating hook's answer is what it wrote to $VALIDATING_RESPONSE_PATH,
// byte for byte.
func TestValidatingHookResponse(t *testing.T) {
	r := newRunner(t, Options{TmpDir: t.TempDir(), Environ: baseEnv()})
	pod := func(image string) string {
		return `{"uid":"u1","operation":"CREATE","userInfo":{"username":"dev"},` +
			`"object":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web"},"spec":{"containers":[{"name":"a","image":"registry.example.com/ok"},{"name":"b","image":"` + image + `"}]}}}`
	}
	cases := []struct{ image, want string }{
		{"docker.io/evil:latest", `{"allowed":false,"message":"image docker.io/evil:latest is not from registry.example.com"}` + "\n"},
		{"registry.example.com/web:1", `{"allowed":true}` + "\n"},
	}
	for _, tc := range cases {
		res, err := webhookRun(t, r, "validating-policy.sh", admission(t, "private-repo-policy.example.com", bctx.Validating, pod(tc.image)))
		if err != nil {
			t.Fatal(err)
		}
		if string(res.AdmissionResponse) != tc.want {
			t.Errorf("image %s: response %q, want %q", tc.image, res.AdmissionResponse, tc.want)
		}
		if res.ConversionResponse != nil {
			t.Errorf("conversion response %q, want none", res.ConversionResponse)
		}
	}
}

// A mutating hook writes to $ADMISSION_RESPONSE_PATH, the same file: its
// patch is standard base64 of a JSON patch, on one line.
func TestMutatingHookResponse(t *testing.T) {
	r := newRunner(t, Options{TmpDir: t.TempDir(), Environ: baseEnv()})
	req := `{"uid":"u2","operation":"CREATE","userInfo":{"username":"alice"},"object":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}}}`
	res, err := webhookRun(t, r, "mutating-label.sh", admission(t, "created-by.example.com", bctx.Mutating, req))
	if err != nil {
		t.Fatal(err)
	}
	var resp struct {
		Allowed  bool     `json:"allowed"`
		Warnings []string `json:"warnings"`
		Patch    []byte   `json:"patch"` // encoding/json reads standard base64
	}
	if err := json.Unmarshal(res.AdmissionResponse, &resp); err != nil {
		t.Fatalf("response %q: %v", res.AdmissionResponse, err)
	}
	wantEq(t, "allowed", resp.Allowed, true)
	wantEq(t, "warnings", strings.Join(resp.Warnings, ","), "labelled by a hook")
	wantEq(t, "patch", string(resp.Patch), `[{"op":"add","path":"/metadata/labels","value":{"created-by":"alice"}}]`+"\n")
	encoded := base64.StdEncoding.EncodeToString(resp.Patch)
	wantEq(t, "response", string(res.AdmissionResponse), `{"allowed":true,"warnings":["labelled by a hook"],"patch":"`+encoded+`"}`+"\n")
}

// A conversion hook converts the request's objects with jq into
// $CONVERSION_RESPONSE_PATH, and says so when it cannot.
func TestConversionHookResponse(t *testing.T) {
	r := newRunner(t, Options{TmpDir: t.TempDir(), Environ: baseEnv()})
	crontab := func(name, cron string) json.RawMessage {
		return json.RawMessage(`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"` + name + `"},"spec":{"cron":"` + cron + `","image":"i"}}`)
	}
	req := bctx.ConversionRequest{UID: "u3", DesiredAPIVersion: "stable.example.com/v2",
		Objects: []json.RawMessage{crontab("a", "* * * * *"), crontab("b", "0 1 * * *")}}
	cases := []struct{ from, to, want string }{
		{"stable.example.com/v1", "stable.example.com/v2", `{"convertedObjects":[` +
			`{"apiVersion":"stable.example.com/v2","kind":"CronTab","metadata":{"name":"a"},"spec":{"image":"i","cronSpec":"* * * * *"}},` +
			`{"apiVersion":"stable.example.com/v2","kind":"CronTab","metadata":{"name":"b"},"spec":{"image":"i","cronSpec":"0 1 * * *"}}]}` + "\n"},
		{"stable.example.com/v2", "stable.example.com/v3", `{"failedMessage":"no conversion stable.example.com/v2 stable.example.com/v3"}` + "\n"},
	}
	for _, tc := range cases {
		c, err := bctx.ConversionContext("crontabs", bctx.ConversionStep{FromVersion: tc.from, ToVersion: tc.to, Request: req}, nil)
		if err != nil {
			t.Fatal(err)
		}
		res, err := webhookRun(t, r, "conversion-crontab.sh", c)
		if err != nil {
			t.Fatal(err)
		}
		if string(res.ConversionResponse) != tc.want {
			t.Errorf("%s to %s: response\n%s\nwant\n%s", tc.from, tc.to, res.ConversionResponse, tc.want)
		}
		if res.AdmissionResponse != nil {
			t.Errorf("admission response %q, want none", res.AdmissionResponse)
		}
	}
}

// The response files exist, empty, in the run's directory; both
// admission names are one file. A run that does not ask has none, and
// reads none back.
func TestWebhookResponseFiles(t *testing.T) {
	out, tmp := t.TempDir(), t.TempDir()
	r := newRunner(t, Options{TmpDir: tmp, Environ: baseEnv("OUT_DIR="+out, `RESPONSE_TEXT={"allowed":true}`)})
	res, err := webhookRun(t, r, "webhook-paths.sh", admission(t, "v.example.com", bctx.Validating, `{"uid":"u"}`))
	if err != nil {
		t.Fatal(err)
	}
	vars := readPaths(t, out)
	wantEq(t, "admission path", vars["admission"], vars["validating"])
	wantEq(t, "validating dir", filepath.Dir(vars["validating"]), vars["dir"])
	wantEq(t, "conversion dir", filepath.Dir(vars["conversion"]), vars["dir"])
	for _, name := range []string{"empty admission_response.json", "empty conversion_response.json"} {
		if _, ok := vars[name]; !ok {
			t.Errorf("the hook did not find %q: %v", name, vars)
		}
	}
	wantEq(t, "response", string(res.AdmissionResponse), `{"allowed":true}`)

	plain := newRunner(t, Options{TmpDir: tmp, Environ: baseEnv("OUT_DIR=" + out)})
	res, err = plain.Run(context.Background(), Request{Hook: testHook(t, "webhook-paths.sh"), Scope: PatchScope{RootKey: "someModule"}})
	if err != nil || res.AdmissionResponse != nil || res.ConversionResponse != nil {
		t.Fatalf("a run without response files: %q %q, %v", res.AdmissionResponse, res.ConversionResponse, err)
	}
	vars = readPaths(t, out)
	wantEq(t, "no variables", vars["validating"]+vars["admission"]+vars["conversion"], "")
}

// readPaths reads what webhook-paths.sh recorded: name=value lines, and
// lines without = as names.
func readPaths(t *testing.T, out string) map[string]string {
	t.Helper()
	vars := map[string]string{}
	for _, line := range strings.Split(readFile(t, filepath.Join(out, "paths")), "\n") {
		k, v, _ := strings.Cut(line, "=")
		vars[k] = v
	}
	return vars
}

// Nothing written is no response; a failed run's response is not read.
func TestWebhookResponsesEmptyOrFailed(t *testing.T) {
	out := t.TempDir()
	r := newRunner(t, Options{TmpDir: t.TempDir(), Environ: baseEnv("OUT_DIR=" + out)})
	res, err := webhookRun(t, r, "trivial.sh", admission(t, "v.example.com", bctx.Validating, `{"uid":"u"}`))
	if err != nil || res.AdmissionResponse != nil || res.ConversionResponse != nil {
		t.Fatalf("nothing written: %q %q %v", res.AdmissionResponse, res.ConversionResponse, err)
	}
	failing := newRunner(t, Options{TmpDir: t.TempDir(), Environ: baseEnv("OUT_DIR="+out, `RESPONSE_TEXT={"allowed":true}`, "EXIT_CODE=2")})
	res, err = webhookRun(t, failing, "webhook-paths.sh", admission(t, "v.example.com", bctx.Validating, `{"uid":"u"}`))
	var exit *ExitError
	if !errors.As(err, &exit) || res.AdmissionResponse != nil {
		t.Fatalf("failed run: response %q, err %v; want an *ExitError and no response", res.AdmissionResponse, err)
	}
}

// A webhook run's directory is reused as new: the next run, webhook or
// not, finds no response file left; Close leaves the temp dir empty.
func TestWebhookRunDirReused(t *testing.T) {
	out, tmp := t.TempDir(), t.TempDir()
	r := newRunner(t, Options{TmpDir: tmp, Environ: baseEnv("OUT_DIR="+out, `RESPONSE_TEXT={"allowed":false}`)})
	dirs := map[string]bool{}
	for i, webhook := range []bool{true, true, false, true} {
		req := Request{Hook: testHook(t, "webhook-paths.sh"), Scope: PatchScope{RootKey: "someModule"}, WebhookResponses: webhook}
		if !webhook {
			req.Hook = testHook(t, "reuse-dir.sh") // records the files it finds
		}
		if _, err := r.Run(context.Background(), req); err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
		r.background.Wait() // the directory is back for the next run
		if !webhook {
			continue
		}
		vars := readPaths(t, out)
		for _, name := range []string{"empty admission_response.json", "empty conversion_response.json"} {
			if _, ok := vars[name]; !ok {
				t.Errorf("run %d found no %s: %v", i, name, vars)
			}
		}
		dirs[vars["dir"]] = true
	}
	records, err := filepath.Glob(filepath.Join(out, "run-*"))
	if err != nil || len(records) != 1 {
		t.Fatalf("records of the plain run = %v (%v)", records, err)
	}
	const files = "binding_context.json config_values.json config_values_json_patch.json kubernetes_patch.yaml metrics.json values.json values_json_patch.json"
	wantEq(t, "files of the plain run", strings.TrimSpace(strings.Split(readFile(t, records[0]), "\n")[1]), files)
	wantEq(t, "directories of the webhook runs", len(dirs), 1)
	r.Close()
	assertNoEntries(t, tmp)
}
