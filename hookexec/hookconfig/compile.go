package hookconfig

import (
	"strings"

	"github.com/itchyny/gojq"
	"github.com/robfig/cron/v3"
	"k8s.io/apimachinery/pkg/labels"
)

// ParseCrontab parses a crontab as --config accepts it: 5 fields, or 6
// with seconds first, or a descriptor such as @every 1m. The schedule actor
// arms what it returns.
func ParseCrontab(crontab string) (cron.Schedule, error) {
	parser := cron.NewParser(cron.SecondOptional | cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow | cron.Descriptor)
	return parser.Parse(crontab)
}

// CompileJq compiles a jqFilter; a blank filter is no filter (nil, nil).
// The kube actor runs what it returns.
func CompileJq(filter string) (*gojq.Code, error) {
	if strings.TrimSpace(filter) == "" {
		return nil, nil
	}
	query, err := gojq.Parse(filter)
	if err != nil {
		return nil, err
	}
	return gojq.Compile(query)
}

// ParseLabelSelector reads a label selector as the binding model keeps it
// (bindings.KubernetesBinding.LabelSelector); empty is everything.
func ParseLabelSelector(selector string) (labels.Selector, error) {
	return labels.Parse(selector)
}
