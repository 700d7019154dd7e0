package rbacgen

import (
	"errors"
	"fmt"

	"github.com/addon-actors/addon-operator/layout"
)

// Object is one object of a module's rendered release.
type Object struct {
	Module     string
	APIVersion string
	Kind       string
	Name       string
	// Namespace is metadata.namespace as rendered; "" is the release's
	// namespace for a namespaced kind.
	Namespace string
}

// Watch is one kubernetes binding of a hook: what the kube actor lists and
// watches for it.
type Watch struct {
	// Owner is the module's name, or "global".
	Owner      string
	Hook       string
	APIVersion string
	Kind       string
	// Namespaces are the binding's namespace.nameSelector; empty is every
	// namespace. ByLabel tells that namespaces are selected by label: the
	// kube actor watches Namespaces then too.
	Namespaces []string
	ByLabel    bool
}

// ModuleRule is a rule of a module's module.yaml `rbac` list.
type ModuleRule struct {
	Module string
	Rule   layout.PolicyRule
}

// Input is what the modules declare, gathered by the caller.
type Input struct {
	// Namespace is the operator's (its ConfigMap, Lease, helm's release
	// Secrets, its Events, the releases' default namespace).
	Namespace string
	Objects   []Object
	Watches   []Watch
	// Validating and Mutating tell that some hook has such a webhook
	// binding: the operator writes the configurations.
	Validating, Mutating bool
	// ConversionCRDs are the CRDs named by conversion bindings: the
	// operator sets their conversion webhook.
	ConversionCRDs []string
	// CRDs tells that some module has crds/ files to apply.
	CRDs  bool
	Rules []ModuleRule
}

// The verbs of each kind of need.
var (
	// helm reads, creates, updates (patch; update when forced) and deletes
	// its objects; drift and readiness list and watch them.
	releaseVerbs = []string{"get", "list", "watch", "create", "update", "patch", "delete"}
	watchVerbs   = []string{"get", "list", "watch"}
	// the webhook registrar gets, creates, updates and deletes the
	// configurations; the CRD installer also waits (list, watch) for a CRD
	// to be established.
	webhookVerbs  = []string{"get", "create", "update", "delete"}
	crdVerbs      = []string{"get", "list", "watch", "create", "update"}
	eventVerbs    = []string{"create", "patch"}
	workloadKinds = map[[2]string]bool{{"apps", "Deployment"}: true, {"apps", "StatefulSet"}: true,
		{"apps", "DaemonSet"}: true, {"batch", "Job"}: true}
)

// Compute returns the grants the modules need, the operator's own
// included. A kind the mapper does not know is an error naming the module
// and the object or hook; all such errors are returned together.
func Compute(in Input, m Mapper) (Set, error) {
	var s Set
	s.AddSet(Own(in.Namespace))
	errs := addObjects(&s, in, m)
	errs = append(errs, addWatches(&s, in.Watches, m)...)
	addWebhooks(&s, in)
	for _, r := range in.Rules {
		addModuleRule(&s, r.Rule)
	}
	return s, errors.Join(errs...)
}

// Own are the operator's own grants in its namespace ns: its ConfigMap
// (read, watched, written back with config patches), helm's release
// Secrets, the leader Lease, its Events (core and events.k8s.io); and
// TokenReview and SubjectAccessReview for the optional authentication of
// its HTTP port.
func Own(ns string) Set {
	var s Set
	s.Add(ns, "", "configmaps", []string{"get", "list", "watch", "create", "update", "patch"})
	s.Add(ns, "", "secrets", releaseVerbs)
	s.Add(ns, "coordination.k8s.io", "leases", []string{"get", "create", "update", "patch"})
	s.Add(ns, "", "events", eventVerbs)
	s.Add(ns, "events.k8s.io", "events", eventVerbs)
	s.Add("", "authentication.k8s.io", "tokenreviews", []string{"create"})
	s.Add("", "authorization.k8s.io", "subjectaccessreviews", []string{"create"})
	addModuleObjects(&s)
	addModuleConfigs(&s)
	return s
}

// addModuleObjects: the Module objects (ADDON_OPERATOR_MODULE_OBJECTS),
// their status, the CRD created when missing, and their Events, which
// land in "default" (the objects are cluster-scoped).
func addModuleObjects(s *Set) {
	verbs := []string{"get", "list", "watch", "create", "update", "patch", "delete"}
	s.Add("", "addon-operator.io", "modules", verbs)
	s.Add("", "addon-operator.io", "modules/status", verbs)
	s.Add("", "apiextensions.k8s.io", "customresourcedefinitions", []string{"get", "create", "watch"})
	s.Add("", "events.k8s.io", "events", eventVerbs)
}

// addModuleConfigs: the ModuleConfig objects (ADDON_OPERATOR_MODULE_CONFIGS)
// are read, their status written; their CRD is created when missing with
// the verbs addModuleObjects grants.
func addModuleConfigs(s *Set) {
	s.Add("", "addon-operator.io", "moduleconfigs", []string{"get", "list", "watch"})
	s.Add("", "addon-operator.io", "moduleconfigs/status", []string{"patch"})
}

// addObjects adds helm's verbs on each release object's resource, and the
// readiness wait's on Pods and ReplicaSets where workloads are. Namespaces
// that a release creates make their objects' rules cluster-wide (doc.go).
func addObjects(s *Set, in Input, m Mapper) []error {
	created := map[string]bool{}
	for _, o := range in.Objects {
		if GroupOf(o.APIVersion) == "" && o.Kind == "Namespace" {
			created[o.Name] = true
		}
	}
	var errs []error
	for _, o := range in.Objects {
		group := GroupOf(o.APIVersion)
		res, err := m.Resource(group, o.Kind)
		if err != nil {
			errs = append(errs, fmt.Errorf("module %s: release object %s %s: %w", o.Module, o.APIVersion, o.Kind, err))
			continue
		}
		ns := ""
		if res.Namespaced {
			ns = o.Namespace
			if ns == "" {
				ns = in.Namespace
			}
			if created[ns] {
				ns = ""
			}
		}
		s.Add(ns, res.Group, res.Resource, releaseVerbs)
		if workloadKinds[[2]string{group, o.Kind}] {
			s.Add(ns, "", "pods", watchVerbs)
			s.Add(ns, "apps", "replicasets", watchVerbs)
		}
	}
	return errs
}

func addWatches(s *Set, watches []Watch, m Mapper) []error {
	var errs []error
	for _, w := range watches {
		res, err := m.Resource(GroupOf(w.APIVersion), w.Kind)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: hook %s: kubernetes binding on %s %s: %w", w.Owner, w.Hook, w.APIVersion, w.Kind, err))
			continue
		}
		if w.ByLabel {
			s.Add("", "", "namespaces", watchVerbs)
		}
		if !res.Namespaced || len(w.Namespaces) == 0 || w.ByLabel {
			s.Add("", res.Group, res.Resource, watchVerbs)
			continue
		}
		for _, ns := range w.Namespaces {
			s.Add(ns, res.Group, res.Resource, watchVerbs)
		}
	}
	return errs
}

func addWebhooks(s *Set, in Input) {
	const admission, crds = "admissionregistration.k8s.io", "apiextensions.k8s.io"
	if in.Validating {
		s.Add("", admission, "validatingwebhookconfigurations", webhookVerbs)
	}
	if in.Mutating {
		s.Add("", admission, "mutatingwebhookconfigurations", webhookVerbs)
	}
	if len(in.ConversionCRDs) > 0 {
		s.Add("", crds, "customresourcedefinitions", []string{"get", "update"}, in.ConversionCRDs...)
	}
	if in.CRDs {
		s.Add("", crds, "customresourcedefinitions", crdVerbs)
	}
}

func addModuleRule(s *Set, r layout.PolicyRule) {
	namespaces := r.Namespaces
	if len(namespaces) == 0 {
		namespaces = []string{""}
	}
	for _, ns := range namespaces {
		for _, g := range r.APIGroups {
			for _, res := range r.Resources {
				s.Add(ns, g, res, r.Verbs, r.ResourceNames...)
			}
		}
	}
}
