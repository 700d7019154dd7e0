package kube

import (
	"fmt"

	"github.com/itchyny/gojq"
	"k8s.io/apimachinery/pkg/fields"

	"github.com/addon-actors/addon-operator/hook/bindings"
	"github.com/addon-actors/addon-operator/hookexec/hookconfig"
)

// compiled is what a monitor runs of its binding's selection, read from
// the text the binding model keeps.
type compiled struct {
	// labels and namespaceLabels are the label selectors in canonical
	// form; empty is everything.
	labels, namespaceLabels string
	// jq is the binding's jqFilter program; nil without a filter.
	jq *gojq.Code
}

// jqCache keeps one program per filter text: a hundred bindings with one
// filter compile it once. It lives with the inputs, across restarts.
type jqCache map[string]*gojq.Code

func (c jqCache) compile(filter string) (*gojq.Code, error) {
	if code, ok := c[filter]; ok {
		return code, nil
	}
	code, err := hookconfig.CompileJq(filter)
	if err != nil {
		return nil, err
	}
	c[filter] = code
	return code, nil
}

// compileBinding reads a binding's selectors and jqFilter; a bad one (checked at
// --config time, so only a hand-made message has one) is an error naming
// the field.
func compileBinding(b bindings.KubernetesBinding, cache jqCache) (compiled, error) {
	var out compiled
	l, err := hookconfig.ParseLabelSelector(b.LabelSelector)
	if err != nil {
		return out, fmt.Errorf("labelSelector %q: %w", b.LabelSelector, err)
	}
	ns, err := hookconfig.ParseLabelSelector(b.Namespace.LabelSelector)
	if err != nil {
		return out, fmt.Errorf("namespace labelSelector %q: %w", b.Namespace.LabelSelector, err)
	}
	if _, err := fields.ParseSelector(b.FieldSelector); err != nil {
		return out, fmt.Errorf("fieldSelector %q: %w", b.FieldSelector, err)
	}
	if out.jq, err = cache.compile(b.JqFilter); err != nil {
		return out, fmt.Errorf("jqFilter %q: %w", b.JqFilter, err)
	}
	out.labels, out.namespaceLabels = l.String(), ns.String()
	return out, nil
}
