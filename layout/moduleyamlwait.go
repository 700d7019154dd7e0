package layout

import (
	"time"

	yaml "go.yaml.in/yaml/v3"
)

// readiness reads module.yaml's `readiness` mapping into r:
//
//	readiness:
//	  wait: true     # wait for the release's workloads after helm
//	  timeout: 2m    # a Go duration
//
// An unknown key under it is an error (a typo would silently keep the
// operator's setting).
func (p yamlReader) readiness(n *yaml.Node, r *Release) error {
	return p.eachEntry("readiness", n, func(e yamlEntry, key string) (err error) {
		switch e.key {
		case "wait":
			r.Wait, err = p.boolean(key, e.value)
		case "timeout":
			r.WaitTimeout, err = p.duration(key, e.value)
		default:
			err = p.errorf(key, e.value, "unknown key; want wait or timeout")
		}
		return err
	})
}

// boolean reads true or false; null is nil (the operator's setting).
func (p yamlReader) boolean(key string, n *yaml.Node) (*bool, error) {
	n = resolveAlias(n)
	if isNull(n) {
		return nil, nil
	}
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!bool" {
		return nil, p.errorf(key, n, "want true or false, got %s", describeNode(n))
	}
	var b bool
	if err := n.Decode(&b); err != nil {
		return nil, p.errorf(key, n, "want true or false, got %q", n.Value)
	}
	return &b, nil
}

// duration reads a positive Go duration ("90s", "2m"); null is 0 (the
// operator's setting).
func (p yamlReader) duration(key string, n *yaml.Node) (time.Duration, error) {
	text, err := p.scalar(key, n)
	if err != nil || text == "" {
		return 0, err
	}
	d, err := time.ParseDuration(text)
	if err != nil {
		return 0, p.errorf(key, n, "want a duration such as 90s or 5m, got %q", text)
	}
	if d <= 0 {
		return 0, p.errorf(key, n, "want a duration above 0, got %q", text)
	}
	return d, nil
}
