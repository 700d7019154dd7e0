package e2e_test

import (
	"encoding/json"
	"strings"
	"testing"

	rbacv1 "k8s.io/api/rbac/v1"

	"github.com/addon-actors/addon-operator/test/scenario"
)

// With ADDON_OPERATOR_HTTP_AUTH=kubernetes, through the built binary and the
// real apiserver: /metrics, /metrics/hooks and /queue answer 401 without a
// token or with one the apiserver did not issue, 403 to a ServiceAccount
// without the rule, 200 to one bound to the chart's metrics-reader
// ClusterRole; /healthz and /readyz stay open. A failed hook's stderr is
// nowhere on the port, and whole on the debug socket.
func TestHTTPAuthAndNoHookOutputOnThePort(t *testing.T) {
	const marker = "DB_PASSWORD=e2e-stderr-marker"
	root, ns := t.TempDir(), kube.Namespace(t)
	writeFiles(t, root, map[string]string{
		"modules/values.yaml": "failingEnabled: true\n",
		"modules/001-failing/hooks/h": "#!/usr/bin/env bash\nif [[ ${1:-} == --config ]]; then echo '{\"configVersion\":\"v1\",\"beforeHelm\":1}'; exit 0; fi\n" +
			"echo connecting >&2\necho '" + marker + "' >&2\nexit 1\n",
	})
	op := startOperator(t, root, ns, "ADDON_OPERATOR_HTTP_AUTH=kubernetes")
	op.waitListening(t)
	op.waitRecord(t, "task failed; retrying", map[string]any{"attempt": 2.0})

	client := kube.Client(t)
	stranger, reader := scenario.ServiceAccountToken(t, client, ns, "stranger"), scenario.ServiceAccountToken(t, client, ns, "prometheus")
	role := chartMetricsReader(t)
	role.Name = ns + "-metrics-reader"
	scenario.CreateClusterRole(t, client, role)
	scenario.BindClusterRole(t, client, ns, "prometheus", role.Name, "/queue")

	bodies := map[string]string{}
	for _, path := range []string{"/metrics", "/metrics/hooks", "/queue", "/queue?format=json"} {
		for _, tc := range []struct {
			who, token string
			want       int
		}{{"anonymous", "", 401}, {"a made-up token", "not-a-token", 401}, {"a ServiceAccount without the rule", stranger, 403},
			{"a ServiceAccount bound to metrics-reader", reader, 200}} {
			code, body := op.getAs(t, path, tc.token)
			if code != tc.want {
				t.Errorf("GET %s as %s: %d, want %d\n%s", path, tc.who, code, tc.want, body)
			}
			if code == 200 {
				bodies[path] = body
			}
		}
	}
	if code, _ := op.getAs(t, "/healthz", ""); code != 200 {
		t.Errorf("anonymous /healthz: %d, want 200", code)
	}
	// The failing module holds the first converge: /readyz answers, open,
	// that it is in progress.
	if code, body := op.getAs(t, "/readyz", ""); code != 500 || strings.TrimSpace(body) != "Startup converge in progress" {
		t.Errorf("anonymous /readyz: %d %q, want the converge's answer", code, body)
	}
	const refused = `addon_operator_http_requests_refused_total{code="401",path="/metrics"}`
	if n := seriesValue(bodies["/metrics"], refused); n != 2 {
		t.Errorf("%s = %v, want 2", refused, n)
	}
	for path, body := range bodies {
		if strings.Contains(body, "e2e-stderr-marker") || strings.Contains(body, "connecting") {
			t.Errorf("%s shows the hook's stderr:\n%s", path, body)
		}
	}
	// The JSON has the error's whole first line; the table its start (a
	// cell holds 120 bytes).
	var snap struct {
		Queues []struct{ Tasks []struct{ LastError string } }
	}
	if err := json.Unmarshal([]byte(bodies["/queue?format=json"]), &snap); err != nil || len(snap.Queues) == 0 || len(snap.Queues[0].Tasks) == 0 {
		t.Fatalf("/queue?format=json: %v\n%s", err, bodies["/queue?format=json"])
	}
	first := snap.Queues[0].Tasks[0].LastError
	if !strings.HasSuffix(first, "exited with code 1") || !strings.Contains(bodies["/queue"], first[:60]) {
		t.Errorf("the error's first line %q is not what /queue shows:\n%s", first, bodies["/queue"])
	}
	if out := op.cli(t, "queue", "list", "-o", "json"); !strings.Contains(out, marker) {
		t.Errorf("the debug socket's queue lost the hook's stderr:\n%s", out)
	}
}

// chartMetricsReader is the metrics-reader ClusterRole the chart renders
// with metricsReader.create.
func chartMetricsReader(t *testing.T) *rbacv1.ClusterRole {
	t.Helper()
	for _, obj := range renderedObjects(t, map[string]any{"metricsReader": map[string]any{"create": true}}) {
		if role, ok := obj.(*rbacv1.ClusterRole); ok && strings.HasSuffix(role.Name, "-metrics-reader") {
			return role
		}
	}
	t.Fatal("the chart renders no metrics-reader ClusterRole with metricsReader.create")
	return nil
}

// The chart turns the port's auth on with the ClusterRole's rule to create
// the reviews; httpAuth: off drops both; metricsReader.subjects binds the
// metrics-reader ClusterRole.
func TestChartHTTPAuth(t *testing.T) {
	cases := []struct {
		name       string
		values     map[string]any
		env        string
		rule, bind bool
	}{
		{"defaults", nil, "kubernetes", true, false},
		{"off", map[string]any{"httpAuth": "off"}, "off", false, false},
		{"a reader bound", map[string]any{"metricsReader": map[string]any{"create": true,
			"subjects": []any{map[string]any{"kind": "ServiceAccount", "name": "prometheus", "namespace": "monitoring"}}}}, "kubernetes", true, true},
	}
	for _, tc := range cases {
		objs := renderedObjects(t, tc.values)
		env := map[string]string{}
		for _, e := range chartDeployment(t, objs).Spec.Template.Spec.Containers[0].Env {
			env[e.Name] = e.Value
		}
		var rule, bind bool
		for _, obj := range objs {
			switch o := obj.(type) {
			case *rbacv1.ClusterRole:
				for _, r := range o.Rules {
					rule = rule || len(r.Resources) == 1 && r.Resources[0] == "tokenreviews" && r.Verbs[0] == "create"
				}
			case *rbacv1.ClusterRoleBinding:
				bind = bind || o.RoleRef.Name == "addon-operator-addon-operator-metrics-reader" && o.Subjects[0].Name == "prometheus"
			}
		}
		if env["ADDON_OPERATOR_HTTP_AUTH"] != tc.env || rule != tc.rule || bind != tc.bind {
			t.Errorf("%s: ADDON_OPERATOR_HTTP_AUTH=%q, review rule %t, reader bound %t; want %q, %t, %t",
				tc.name, env["ADDON_OPERATOR_HTTP_AUTH"], rule, bind, tc.env, tc.rule, tc.bind)
		}
	}
}
