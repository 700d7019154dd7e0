package e2e_test

import (
	"context"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// With webhooks.enabled the chart makes the two Services the apiserver
// calls (port 443 to the pod's admission and conversion ports, not-ready
// pods published), tells the operator their names and the configuration
// name, and mounts the certificate Secret where the servers read it; the
// pod still passes the restricted standard. Without certSecret it refuses
// to render, naming the value.
func TestChartWebhooks(t *testing.T) {
	values := map[string]any{"webhooks": map[string]any{"enabled": true, "certSecret": "ao-webhook-tls"}}
	objs := renderedObjects(t, values)
	services := map[string]*corev1.Service{}
	for _, obj := range objs {
		if s, ok := obj.(*corev1.Service); ok {
			services[s.Name] = s
		}
	}
	// The validating Service's second port reaches the ModuleConfig webhook.
	for name, want := range map[string][]string{"addon-operator-validating": {"admission", "moduleconfig"}, "addon-operator-conversion": {"conversion"}} {
		s := services[name]
		if s == nil || !s.Spec.PublishNotReadyAddresses || len(s.Spec.Ports) != len(want) || s.Spec.Ports[0].Port != 443 ||
			s.Spec.Ports[0].TargetPort != intstr.FromString(want[0]) {
			t.Fatalf("Service %s: %+v", name, s)
		}
		if len(want) == 2 && (s.Spec.Ports[1].Port != 9682 || s.Spec.Ports[1].TargetPort != intstr.FromString(want[1])) {
			t.Fatalf("Service %s: ports %+v, want 9682 to moduleconfig", name, s.Spec.Ports)
		}
	}
	dep := chartDeployment(t, objs)
	c := dep.Spec.Template.Spec.Containers[0]
	env := map[string]string{}
	for _, e := range c.Env {
		env[e.Name] = e.Value
	}
	if env["VALIDATING_WEBHOOK_SERVICE_NAME"] != "addon-operator-validating" || env["CONVERSION_WEBHOOK_SERVICE_NAME"] != "addon-operator-conversion" ||
		env["VALIDATING_WEBHOOK_CONFIGURATION_NAME"] != "addon-operator-hooks" {
		t.Fatalf("env %v", env)
	}
	ports := map[string]int32{}
	for _, p := range c.Ports {
		ports[p.Name] = p.ContainerPort
	}
	mounts := map[string]string{}
	for _, m := range c.VolumeMounts {
		mounts[m.MountPath] = m.Name
	}
	if ports["admission"] != 9680 || ports["conversion"] != 9681 || ports["moduleconfig"] != 9682 || mounts["/validating-certs"] != "webhook-certs" || mounts["/conversion-certs"] != "webhook-certs" {
		t.Fatalf("ports %v, mounts %v", ports, mounts)
	}
	client := kube.Client(t)
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "with-webhooks"}, Spec: dep.Spec.Template.Spec}
	if _, err := client.CoreV1().Pods(restrictedNamespace(t, client)).Create(context.Background(), pod, metav1.CreateOptions{}); err != nil {
		t.Fatalf("the pod with webhooks is refused in a restricted namespace: %v", err)
	}
	if _, err := renderChart(t, map[string]any{"webhooks": map[string]any{"enabled": true}}); err == nil || !strings.Contains(err.Error(), "webhooks.certSecret") {
		t.Fatalf("render without certSecret: %v, want an error naming webhooks.certSecret", err)
	}
}
