package rbacgen

import (
	"errors"
	"fmt"
	"strings"
)

// ErrUnknownKind is the error of a Mapper that does not know a kind.
var ErrUnknownKind = errors.New("unknown kind")

// Resource is what a kind is called in RBAC rules, and its scope.
type Resource struct {
	Group      string
	Resource   string
	Namespaced bool
}

// Mapper turns a kind of an API group into its resource (a cluster's
// discovery, or the built-in table with the modules' own CRDs).
type Mapper interface {
	Resource(group, kind string) (Resource, error)
}

// GroupOf is the API group of an apiVersion ("apps/v1" -> "apps", "v1" -> "").
func GroupOf(apiVersion string) string {
	group, _, found := strings.Cut(apiVersion, "/")
	if !found {
		return ""
	}
	return group
}

// Table is a Mapper from a fixed table, keyed by group and kind.
type Table map[[2]string]Resource

// Resource implements Mapper.
func (t Table) Resource(group, kind string) (Resource, error) {
	if r, ok := t[[2]string{group, kind}]; ok {
		return r, nil
	}
	return Resource{}, fmt.Errorf("%w %s in API group %q", ErrUnknownKind, kind, group)
}

// AddCRD adds the kind a CustomResourceDefinition defines.
func (t Table) AddCRD(group, kind, plural string, namespaced bool) {
	t[[2]string{group, kind}] = Resource{Group: group, Resource: plural, Namespaced: namespaced}
}

// Chain asks each mapper in turn; the first that knows the kind answers.
type Chain []Mapper

// Resource implements Mapper.
func (c Chain) Resource(group, kind string) (Resource, error) {
	var errs []error
	for _, m := range c {
		r, err := m.Resource(group, kind)
		if err == nil {
			return r, nil
		}
		errs = append(errs, err)
	}
	if len(errs) == 0 {
		return Resource{}, fmt.Errorf("%w %s in API group %q", ErrUnknownKind, kind, group)
	}
	return Resource{}, errs[0]
}

// BuiltIn is the table of the kinds every cluster serves (Kubernetes
// 1.29+), used without a kubeconfig; kinds of other groups need the
// cluster's discovery or a CRD in a module.
func BuiltIn() Table {
	t := Table{}
	add := func(group string, namespaced bool, kinds ...string) {
		for i := 0; i+1 < len(kinds); i += 2 {
			t[[2]string{group, kinds[i]}] = Resource{Group: group, Resource: kinds[i+1], Namespaced: namespaced}
		}
	}
	add("", true, "ConfigMap", "configmaps", "Secret", "secrets", "Service", "services", "ServiceAccount", "serviceaccounts",
		"Pod", "pods", "PersistentVolumeClaim", "persistentvolumeclaims", "Endpoints", "endpoints", "Event", "events",
		"LimitRange", "limitranges", "ResourceQuota", "resourcequotas", "ReplicationController", "replicationcontrollers",
		"PodTemplate", "podtemplates")
	add("", false, "Namespace", "namespaces", "Node", "nodes", "PersistentVolume", "persistentvolumes")
	add("apps", true, "Deployment", "deployments", "StatefulSet", "statefulsets", "DaemonSet", "daemonsets",
		"ReplicaSet", "replicasets", "ControllerRevision", "controllerrevisions")
	add("batch", true, "Job", "jobs", "CronJob", "cronjobs")
	add("autoscaling", true, "HorizontalPodAutoscaler", "horizontalpodautoscalers")
	add("policy", true, "PodDisruptionBudget", "poddisruptionbudgets")
	add("networking.k8s.io", true, "Ingress", "ingresses", "NetworkPolicy", "networkpolicies")
	add("networking.k8s.io", false, "IngressClass", "ingressclasses")
	add("discovery.k8s.io", true, "EndpointSlice", "endpointslices")
	add("coordination.k8s.io", true, "Lease", "leases")
	add("events.k8s.io", true, "Event", "events")
	add("rbac.authorization.k8s.io", true, "Role", "roles", "RoleBinding", "rolebindings")
	add("rbac.authorization.k8s.io", false, "ClusterRole", "clusterroles", "ClusterRoleBinding", "clusterrolebindings")
	add("storage.k8s.io", false, "StorageClass", "storageclasses", "CSIDriver", "csidrivers", "VolumeAttachment", "volumeattachments")
	add("scheduling.k8s.io", false, "PriorityClass", "priorityclasses")
	add("apiextensions.k8s.io", false, "CustomResourceDefinition", "customresourcedefinitions")
	add("admissionregistration.k8s.io", false, "ValidatingWebhookConfiguration", "validatingwebhookconfigurations",
		"MutatingWebhookConfiguration", "mutatingwebhookconfigurations",
		"ValidatingAdmissionPolicy", "validatingadmissionpolicies", "ValidatingAdmissionPolicyBinding", "validatingadmissionpolicybindings")
	add("apiregistration.k8s.io", false, "APIService", "apiservices")
	add("certificates.k8s.io", false, "CertificateSigningRequest", "certificatesigningrequests")
	return t
}
