package e2e_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/dynamic"
)

// Global hooks written as shell-operator's webhook examples (204, 206,
// 210): the shell library's __on_validating::, __on_mutating:: and
// __on_conversion::<name>::<from>::<to> handlers, answering through
// $VALIDATING_RESPONSE_PATH, its alias $ADMISSION_RESPONSE_PATH and
// $CONVERSION_RESPONSE_PATH (spec/WEBHOOKS.md §2, §5; spec/IMAGE.md §1.3).

const libValidating = `
__config__() {
  cat <<'EOF'
configVersion: v1
kubernetesValidating:
- name: policy.shlib.example.com
  namespace: {labelSelector: {matchLabels: {kubernetes.io/metadata.name: "@NS@"}}}
  labelSelector: {matchLabels: {shlib-webhook: "yes"}}
  rules:
  - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [configmaps], scope: Namespaced}
EOF
}
__on_validating::policy.shlib.example.com() {
  local name
  name=$(context::jq -r '.review.request.object.metadata.name')
  if [[ $name == deny-* ]]; then
    echo '{"allowed":false,"message":"'"$(context::get type) $BINDING_CONTEXT_CURRENT_BINDING"' denies '"$name"'"}' > "$VALIDATING_RESPONSE_PATH"
  else
    echo '{"allowed":true}' > "$VALIDATING_RESPONSE_PATH"
  fi
}`

const libMutating = `
__config__() {
  echo '{"configVersion":"v1","kubernetesMutating":[{"name":"labels.shlib.example.com",` +
	`"namespace":{"labelSelector":{"matchLabels":{"kubernetes.io/metadata.name":"@NS@"}}},` +
	`"labelSelector":{"matchLabels":{"shlib-webhook":"yes"}},` +
	`"rules":[{"apiGroups":[""],"apiVersions":["v1"],"operations":["CREATE"],"resources":["configmaps"]}]}]}'
}
__on_mutating::labels.shlib.example.com() {
  local patch
  patch=$(echo '[{"op":"add","path":"/metadata/labels/mutated-by","value":"'"$(context::get binding)"'"}]' | base64 -w 0)
  echo '{"allowed":true,"patch":"'"$patch"'"}' > "$ADMISSION_RESPONSE_PATH"
}`

// libConversion converts @GROUP@/v1 to @GROUP@/v2 and back, one handler per
// rule, each stamping the objects with its rule.
const libConversion = `
__config__() {
  cat <<'EOF'
configVersion: v1
kubernetesCustomResourceConversion:
- name: alpha
  crdName: crontabs.@GROUP@
  conversions:
  - {fromVersion: "@GROUP@/v1", toVersion: "@GROUP@/v2"}
  - {fromVersion: "@GROUP@/v2", toVersion: "@GROUP@/v1"}
EOF
}
convert() {
  context::jq -c --arg to "$(context::get toVersion)" --arg by "$1" \
    '{convertedObjects: [.review.request.objects[] | .apiVersion = $to | .spec.by = $by]}' > "$CONVERSION_RESPONSE_PATH"
}
__on_conversion::alpha::@GROUP@.v1::@GROUP@.v2() { convert up; }
__on_conversion::alpha::@GROUP@.v2::@GROUP@.v1() { convert down; }`

// createLibCRD creates the guard's CRD (v1 stored, v2 and v3 served) for
// the global conversion hook: it must exist before the operator registers
// the conversion.
func createLibCRD(t *testing.T, crds apiextensionsclient.Interface, group string) {
	t.Helper()
	var crd apiextensionsv1.CustomResourceDefinition
	if err := yaml.Unmarshal([]byte(strings.ReplaceAll(crontabCRD, "GROUP", group)), &crd); err != nil {
		t.Fatal(err)
	}
	deleteCRDAtEnd(t, crd.Name)
	if _, err := crds.ApiextensionsV1().CustomResourceDefinitions().Create(context.Background(), &crd, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// Global hooks with the shell library serve all three bindings: a
// ConfigMap is denied with the validating handler's message, another is
// labelled by the mutating handler, a CronTab stored at v1 reads at v2
// through the conversion handler of that rule and back. The global
// configurations carry shell-operator's defaults.
func TestWebhookGlobalShellLibHooks(t *testing.T) {
	ns := kube.Namespace(t)
	group := ns + ".shlib.example.com"
	cfg := kube.Config(t)
	crds := apiextensionsclient.NewForConfigOrDie(cfg)
	createLibCRD(t, crds, group)
	inNS := func(s string) string { return strings.NewReplacer("@NS@", ns, "@GROUP@", group).Replace(s) }
	root := tree(t, map[string]string{
		"global-hooks/validating": shellLibHook(inNS(libValidating)),
		"global-hooks/mutating":   shellLibHook(inNS(libMutating)),
		"global-hooks/conversion": shellLibHook(inNS(libConversion)),
	})
	op := startSpec(t, root, ns, append(webhookEnv(t, ns, "global"), shellLibEnv())...)
	op.waitReady(t)
	client := kube.Client(t)
	cms := client.CoreV1().ConfigMaps(ns)
	ctx := context.Background()
	retryUntil(t, "deny-one denied by the validating handler", func() error {
		_, err := cms.Create(ctx, libConfigMap("deny-one"), metav1.CreateOptions{})
		return errorHas(err, "Validating policy.shlib.example.com denies deny-one")
	})
	created, err := cms.Create(ctx, libConfigMap("allow-one"), metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("allow-one: %v\n%s", err, op.logText())
	}
	if created.Labels["mutated-by"] != "labels.shlib.example.com" {
		t.Errorf("labels %v: the mutating handler's patch is not applied", created.Labels)
	}
	checkGlobalConfigurations(t, ns)
	checkLibConversion(t, dynamic.NewForConfigOrDie(cfg), ns, group)
}

func libConfigMap(name string) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"shlib-webhook": "yes"}}}
}

// checkLibConversion: a CronTab created at v1 reads at v2 through the
// v1 → v2 handler; created at v2, it is stored through v2 → v1.
func checkLibConversion(t *testing.T, dyn dynamic.Interface, ns, group string) {
	t.Helper()
	ctx := context.Background()
	retryUntil(t, "c1 created at v1 (the CRD established)", func() error {
		_, err := dyn.Resource(crontabs(group, "v1")).Namespace(ns).Create(ctx, crontab(group, "v1", "c1"), metav1.CreateOptions{})
		return err
	})
	var got *unstructured.Unstructured
	retryUntil(t, "c1 read at v2", func() (err error) {
		got, err = dyn.Resource(crontabs(group, "v2")).Namespace(ns).Get(ctx, "c1", metav1.GetOptions{})
		return err
	})
	if by, _, _ := unstructured.NestedString(got.Object, "spec", "by"); by != "up" || got.GetAPIVersion() != group+"/v2" {
		t.Errorf("c1 at v2: %s converted by %q, want %s/v2 by up", got.GetAPIVersion(), by, group)
	}
	if _, err := dyn.Resource(crontabs(group, "v2")).Namespace(ns).Create(ctx, crontab(group, "v2", "c2"), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	got, err := dyn.Resource(crontabs(group, "v1")).Namespace(ns).Get(ctx, "c2", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if by, _, _ := unstructured.NestedString(got.Object, "spec", "by"); by != "down" {
		t.Errorf("c2 at v1: converted by %q, want down", by)
	}
}

// checkGlobalConfigurations: the global hooks' bindings are in the
// configurations <prefix>-global, each with the defaults shell-operator
// gives a binding that sets none (failurePolicy Fail, sideEffects None,
// timeoutSeconds 10, matchPolicy Equivalent, review versions v1 and
// v1beta1).
func checkGlobalConfigurations(t *testing.T, ns string) {
	t.Helper()
	client := kube.Client(t).AdmissionregistrationV1()
	ctx := context.Background()
	v, err := client.ValidatingWebhookConfigurations().Get(ctx, ns+"-global", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := client.MutatingWebhookConfigurations().Get(ctx, ns+"-global", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Webhooks) != 1 || len(m.Webhooks) != 1 {
		t.Fatalf("validating %d webhooks, mutating %d; want 1 each", len(v.Webhooks), len(m.Webhooks))
	}
	vw, mw := v.Webhooks[0], m.Webhooks[0]
	want := defaultsOf(admissionregistrationv1.Fail, admissionregistrationv1.SideEffectClassNone, 10, admissionregistrationv1.Equivalent)
	for _, got := range []webhookDefaults{
		defaultsOf(*vw.FailurePolicy, *vw.SideEffects, *vw.TimeoutSeconds, *vw.MatchPolicy),
		defaultsOf(*mw.FailurePolicy, *mw.SideEffects, *mw.TimeoutSeconds, *mw.MatchPolicy),
	} {
		if !equality.Semantic.DeepEqual(got, want) {
			t.Errorf("webhook defaults %+v, want %+v", got, want)
		}
	}
	for _, versions := range [][]string{vw.AdmissionReviewVersions, mw.AdmissionReviewVersions} {
		if !slices.Equal(versions, []string{"v1", "v1beta1"}) {
			t.Errorf("admissionReviewVersions %v, want [v1 v1beta1]", versions)
		}
	}
	if vw.Name != "policy.shlib.example.com" || mw.Name != "labels.shlib.example.com" {
		t.Errorf("webhook names %s, %s", vw.Name, mw.Name)
	}
}

type webhookDefaults struct {
	FailurePolicy admissionregistrationv1.FailurePolicyType
	SideEffects   admissionregistrationv1.SideEffectClass
	Timeout       int32
	MatchPolicy   admissionregistrationv1.MatchPolicyType
}

func defaultsOf(f admissionregistrationv1.FailurePolicyType, s admissionregistrationv1.SideEffectClass, timeout int32,
	m admissionregistrationv1.MatchPolicyType) webhookDefaults {
	return webhookDefaults{FailurePolicy: f, SideEffects: s, Timeout: timeout, MatchPolicy: m}
}
