package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/kubernetes"
	rbacv1client "k8s.io/client-go/kubernetes/typed/rbac/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
	"sigs.k8s.io/yaml"

	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/rbacgen"
)

// discoveryMapper is rbacgen.Mapper through the cluster's discovery.
type discoveryMapper struct{ mapper meta.RESTMapper }

func clusterMapper(cfg *rest.Config) (rbacgen.Mapper, error) {
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	return discoveryMapper{restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(client.Discovery()))}, nil
}

func (d discoveryMapper) Resource(group, kind string) (rbacgen.Resource, error) {
	m, err := d.mapper.RESTMapping(schema.GroupKind{Group: group, Kind: kind})
	if meta.IsNoMatchError(err) {
		return rbacgen.Resource{}, fmt.Errorf("%w %s in API group %q (not served by the cluster)", rbacgen.ErrUnknownKind, kind, group)
	}
	if err != nil {
		return rbacgen.Resource{}, fmt.Errorf("discovery of %s in API group %q: %w", kind, group, err)
	}
	return rbacgen.Resource{Group: group, Resource: m.Resource.Resource, Namespaced: m.Scope.Name() == meta.RESTScopeNameNamespace}, nil
}

// grantedRules are the rules granted now: the roles in --diff-file, or the
// roles the cluster binds to the ServiceAccount.
func grantedRules(ctx context.Context, f rbacFlags, cfg *rest.Config) (rbacgen.Rules, error) {
	if f.diffFile != "" {
		data, err := readManifestFile(f.diffFile)
		if err != nil {
			return rbacgen.Rules{}, fmt.Errorf("--diff-file %s: %w", f.diffFile, err)
		}
		rules, err := rolesInFile(data)
		if err != nil {
			return rbacgen.Rules{}, fmt.Errorf("--diff-file %s: %w", f.diffFile, err)
		}
		return rules, nil
	}
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return rbacgen.Rules{}, err
	}
	return boundRules(ctx, client.RbacV1(), f.sub)
}

// rolesInFile reads the ClusterRoles and Roles of a YAML stream (or a JSON
// List); other kinds are skipped.
func rolesInFile(data []byte) (rbacgen.Rules, error) {
	out := rbacgen.Rules{Namespaced: map[string][]rbacgen.Rule{}}
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
	for i := 1; ; i++ {
		var doc struct {
			Kind     string `json:"kind"`
			Metadata struct {
				Namespace string `json:"namespace"`
			} `json:"metadata"`
			Rules []rbacv1.PolicyRule `json:"rules"`
			Items []listItem          `json:"items"`
		}
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, fmt.Errorf("document %d: %w", i, err)
		}
		addRoleDoc(&out, doc.Kind, doc.Metadata.Namespace, doc.Rules)
		for _, item := range doc.Items {
			if err := addListItem(&out, item); err != nil {
				return out, fmt.Errorf("document %d: %w", i, err)
			}
		}
	}
}

// listItem is one item of a v1 List.
type listItem = map[string]any

func addListItem(out *rbacgen.Rules, item listItem) error {
	body, err := yaml.Marshal(item)
	if err != nil {
		return err
	}
	var role rbacv1.Role // a ClusterRole has the same fields that matter
	if err := yaml.Unmarshal(body, &role); err != nil {
		return err
	}
	kind, _ := item["kind"].(string)
	addRoleDoc(out, kind, role.Namespace, role.Rules)
	return nil
}

func addRoleDoc(out *rbacgen.Rules, kind, ns string, rules []rbacv1.PolicyRule) {
	switch kind {
	case "ClusterRole":
		out.Cluster = append(out.Cluster, rbacgen.FromPolicyRules(rules)...)
	case "Role":
		out.Namespaced[ns] = append(out.Namespaced[ns], rbacgen.FromPolicyRules(rules)...)
	}
}

// boundRules are the rules of the ClusterRoles and Roles that the
// cluster's bindings grant the subject: a ClusterRoleBinding's role
// cluster-wide, a RoleBinding's (to a Role or a ClusterRole) in its
// namespace.
func boundRules(ctx context.Context, api rbacv1client.RbacV1Interface, sub rbacgen.Subject) (rbacgen.Rules, error) {
	out := rbacgen.Rules{Namespaced: map[string][]rbacgen.Rule{}}
	crbs, err := api.ClusterRoleBindings().List(ctx, metav1.ListOptions{})
	if err != nil {
		return out, fmt.Errorf("list ClusterRoleBindings: %w", err)
	}
	for _, b := range crbs.Items {
		if names(b.Subjects, sub) && b.RoleRef.Kind == "ClusterRole" {
			rules, err := roleRules(ctx, api, "", b.RoleRef)
			if err != nil {
				return out, err
			}
			out.Cluster = append(out.Cluster, rules...)
		}
	}
	rbs, err := api.RoleBindings("").List(ctx, metav1.ListOptions{})
	if err != nil {
		return out, fmt.Errorf("list RoleBindings: %w", err)
	}
	for _, b := range rbs.Items {
		if names(b.Subjects, sub) {
			rules, err := roleRules(ctx, api, b.Namespace, b.RoleRef)
			if err != nil {
				return out, err
			}
			out.Namespaced[b.Namespace] = append(out.Namespaced[b.Namespace], rules...)
		}
	}
	return out, nil
}

func names(subjects []rbacv1.Subject, sub rbacgen.Subject) bool {
	for _, s := range subjects {
		if s.Kind == rbacv1.ServiceAccountKind && s.Name == sub.ServiceAccount && s.Namespace == sub.Namespace {
			return true
		}
	}
	return false
}

// roleRules are the rules of a binding's role; a role that does not exist
// grants nothing (as the apiserver has it).
func roleRules(ctx context.Context, api rbacv1client.RbacV1Interface, ns string, ref rbacv1.RoleRef) ([]rbacgen.Rule, error) {
	var rules []rbacv1.PolicyRule
	var err error
	if ref.Kind == "ClusterRole" {
		var r *rbacv1.ClusterRole
		if r, err = api.ClusterRoles().Get(ctx, ref.Name, metav1.GetOptions{}); err == nil {
			rules = r.Rules
		}
	} else {
		var r *rbacv1.Role
		if r, err = api.Roles(ns).Get(ctx, ref.Name, metav1.GetOptions{}); err == nil {
			rules = r.Rules
		}
	}
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s %s: %w", ref.Kind, ref.Name, err)
	}
	return rbacgen.FromPolicyRules(rules), nil
}
