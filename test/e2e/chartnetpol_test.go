package e2e_test

import (
	"encoding/json"
	"testing"

	networkingv1 "k8s.io/api/networking/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// chartNetworkPolicy is the rendered chart's NetworkPolicy (nil: none).
func chartNetworkPolicy(t *testing.T, objs []runtime.Object) *networkingv1.NetworkPolicy {
	t.Helper()
	var found *networkingv1.NetworkPolicy
	for _, obj := range objs {
		if np, ok := obj.(*networkingv1.NetworkPolicy); ok {
			if found != nil {
				t.Fatalf("two NetworkPolicies: %s and %s", found.Name, np.Name)
			}
			found = np
		}
	}
	return found
}

// ingressPorts are the ports of the policy's rules, each rule's as a list,
// and its peers as JSON ("" for a rule open to any source).
func ingressRules(np *networkingv1.NetworkPolicy) (ports [][]int32, from []string) {
	for _, rule := range np.Spec.Ingress {
		var p []int32
		for _, port := range rule.Ports {
			p = append(p, port.Port.IntVal)
		}
		ports = append(ports, p)
		peers := ""
		if len(rule.From) > 0 {
			raw, _ := json.Marshal(rule.From)
			peers = string(raw)
		}
		from = append(from, peers)
	}
	return ports, from
}

// The chart's NetworkPolicy (on by default) selects the operator's pods,
// restricts ingress only, lets the scraper's namespace and the operator's
// own pods reach the HTTP port, and opens the webhook ports (from any
// source unless webhookFrom says) only with webhooks.enabled. Without
// scraper selectors the HTTP port is open to all; disabled, there is none.
func TestChartNetworkPolicy(t *testing.T) {
	own := `{"podSelector":{"matchLabels":{"app.kubernetes.io/instance":"addon-operator","app.kubernetes.io/name":"addon-operator"}}}`
	monitoring := `{"namespaceSelector":{"matchLabels":{"kubernetes.io/metadata.name":"monitoring"}}}`
	webhooksOn := map[string]any{"enabled": true, "certSecret": "ao-webhook-tls"}
	cases := []struct {
		name   string
		values map[string]any
		ports  [][]int32
		from   []string
	}{
		{"defaults", nil, [][]int32{{9115}}, []string{"[" + monitoring + "," + own + "]"}},
		{"webhooks", map[string]any{"webhooks": webhooksOn},
			[][]int32{{9115}, {9680, 9681, 9682}}, []string{"[" + monitoring + "," + own + "]", ""}},
		{"webhook peers and a scraper pod selector", map[string]any{"webhooks": webhooksOn, "listenPort": 8080,
			"networkPolicy": map[string]any{"webhookFrom": []any{map[string]any{"ipBlock": map[string]any{"cidr": "10.0.0.0/24"}}},
				"scraper": map[string]any{"namespaceSelector": nil, "podSelector": map[string]any{"matchLabels": map[string]any{"app": "prometheus"}}}}},
			[][]int32{{8080}, {9680, 9681, 9682}},
			[]string{`[{"podSelector":{"matchLabels":{"app":"prometheus"}}},` + own + "]", `[{"ipBlock":{"cidr":"10.0.0.0/24"}}]`}},
		{"no scraper selector", map[string]any{"networkPolicy": map[string]any{"scraper": nil}}, [][]int32{{9115}}, []string{""}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			np := chartNetworkPolicy(t, renderedObjects(t, c.values))
			if np == nil {
				t.Fatal("no NetworkPolicy rendered")
			}
			if len(np.Spec.PolicyTypes) != 1 || np.Spec.PolicyTypes[0] != networkingv1.PolicyTypeIngress ||
				np.Spec.PodSelector.MatchLabels["app.kubernetes.io/instance"] != "addon-operator" {
				t.Errorf("policy types %v, pod selector %v", np.Spec.PolicyTypes, np.Spec.PodSelector)
			}
			ports, from := ingressRules(np)
			got, _ := json.Marshal([]any{ports, from})
			want, _ := json.Marshal([]any{c.ports, c.from})
			if string(got) != string(want) {
				t.Errorf("ingress rules\n got %s\nwant %s", got, want)
			}
		})
	}
	if np := chartNetworkPolicy(t, renderedObjects(t, map[string]any{"networkPolicy": map[string]any{"enabled": false}})); np != nil {
		t.Errorf("networkPolicy.enabled false rendered %s", np.Name)
	}
}
