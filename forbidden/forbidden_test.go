package forbidden_test

import (
	"errors"
	"fmt"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/addon-actors/addon-operator/forbidden"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name, msg string
		want      forbidden.Denial
		ok        bool
	}{
		{"helm's create in a namespace",
			`failed to create resource: deployments.apps is forbidden: User "system:serviceaccount:ops:ao" cannot create resource "deployments" in API group "apps" in the namespace "shop"`,
			forbidden.Denial{User: "system:serviceaccount:ops:ao", Verb: "create", Group: "apps", Resource: "deployments", Namespace: "shop"}, true},
		{"core group at the cluster scope",
			`nodes is forbidden: User "u" cannot list resource "nodes" in API group "" at the cluster scope`,
			forbidden.Denial{User: "u", Verb: "list", Resource: "nodes"}, true},
		{"subresource, named object",
			`pods "web-1" is forbidden: User "u" cannot create resource "pods/exec" in API group "" in the namespace "a"`,
			forbidden.Denial{User: "u", Verb: "create", Resource: "pods/exec", Namespace: "a"}, true},
		{"helm's multi-line wrap",
			"UPGRADE FAILED: cannot patch \"web\" with kind ConfigMap: configmaps \"web\" is forbidden: User \"u\" cannot patch resource \"configmaps\" in API group \"\" in the namespace \"ops\"",
			forbidden.Denial{User: "u", Verb: "patch", Resource: "configmaps", Namespace: "ops"}, true},
		{"not a refusal", `configmaps "web" not found`, forbidden.Denial{}, false},
		{"a conflict", `Operation cannot be fulfilled on configmaps "x": the object has been modified`, forbidden.Denial{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := forbidden.Parse(tc.msg)
			if ok != tc.ok || got != tc.want {
				t.Fatalf("Parse = %+v, %v; want %+v, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestExplainStatusError(t *testing.T) {
	status := apierrors.NewForbidden(schema.GroupResource{Group: "apps", Resource: "deployments"}, "web",
		errors.New(`User "u" cannot update resource "deployments" in API group "apps" in the namespace "shop"`))
	err := forbidden.Explain(fmt.Errorf("object patch: %w", status))
	want := `forbidden: update apps/deployments in namespace shop; add the rule {apiGroups: ["apps"], resources: ["deployments"], verbs: ["update"]} to a Role in namespace shop (or the ClusterRole) (addon-operator rbac computes it): object patch: `
	if got := err.Error(); len(got) < len(want) || got[:len(want)] != want {
		t.Fatalf("error %q\nwant it to start %q", got, want)
	}
	if !apierrors.IsForbidden(errors.Unwrap(err)) && !errors.As(err, new(*apierrors.StatusError)) {
		t.Fatal("the status error is not kept")
	}
	if again := forbidden.Explain(fmt.Errorf("run: %w", err)); again.Error() != "run: "+err.Error() {
		t.Fatalf("explained twice: %q", again)
	}
	joined := errors.Join(errors.New(`User "u" cannot get resource "pods" in API group "" at the cluster scope`), err, err)
	if all := forbidden.All(joined.Error()); len(all) != 2 || all[0].Resource != "pods" || all[1].GroupResource() != "apps/deployments" {
		t.Fatalf("All = %+v", all)
	}
	plain := errors.New("boom")
	if forbidden.Explain(plain) != plain {
		t.Fatal("an error without a refusal changed")
	}
}
