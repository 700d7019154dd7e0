package hookexec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
)

// MetricAction is what a metric operation does.
type MetricAction string

// The actions of a metrics file line.
const (
	MetricSet     MetricAction = "set"
	MetricAdd     MetricAction = "add"
	MetricObserve MetricAction = "observe"
	MetricExpire  MetricAction = "expire"
)

// MetricOp is one line of a hook's $METRICS_PATH file: set a gauge, add to a
// counter, observe a histogram value, or expire a group's metrics.
type MetricOp struct {
	Name    string
	Action  MetricAction
	Value   float64
	Labels  map[string]string
	Buckets []float64
	// Group names a set of metrics that a later `expire` of the group
	// removes at once.
	Group string
}

type metricLine struct {
	Name    string            `json:"name"`
	Action  string            `json:"action"`
	Value   *float64          `json:"value"`
	Labels  map[string]string `json:"labels"`
	Buckets []float64         `json:"buckets"`
	Group   string            `json:"group"`
	// The older form names the action by its value's key.
	Set *float64 `json:"set"`
	Add *float64 `json:"add"`
}

// ParseMetrics reads a metrics file: JSON objects, one per line (any JSON
// whitespace between them works). Errors name the line.
func ParseMetrics(data []byte) ([]MetricOp, error) {
	var ops []MetricOp
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		offset := dec.InputOffset()
		var m metricLine
		err := dec.Decode(&m)
		if errors.Is(err, io.EOF) {
			return ops, nil
		}
		line := lineOf(data, offset)
		if err != nil {
			return nil, fmt.Errorf("%w: line %d: %v", ErrBadMetrics, line, err)
		}
		op, err := m.op()
		if err != nil {
			return nil, fmt.Errorf("%w: line %d: %v", ErrBadMetrics, line, err)
		}
		ops = append(ops, op)
	}
}

func (m metricLine) op() (MetricOp, error) {
	op := MetricOp{Name: m.Name, Action: MetricAction(m.Action), Labels: m.Labels, Buckets: m.Buckets, Group: m.Group}
	value := m.Value
	switch {
	case op.Action == "" && m.Set != nil:
		op.Action, value = MetricSet, m.Set
	case op.Action == "" && m.Add != nil:
		op.Action, value = MetricAdd, m.Add
	}
	switch op.Action {
	case MetricSet, MetricAdd, MetricObserve:
		if op.Name == "" {
			return op, fmt.Errorf("%s: no name", op.Action)
		}
		if value == nil || math.IsNaN(*value) || math.IsInf(*value, 0) {
			return op, fmt.Errorf("%s %s: want a numeric value", op.Action, op.Name)
		}
		op.Value = *value
	case MetricExpire:
		if op.Group == "" {
			return op, fmt.Errorf("expire: no group")
		}
	case "":
		return op, fmt.Errorf("metric %q: no action (want set, add, observe or expire)", op.Name)
	default:
		return op, fmt.Errorf("metric %q: action %q: want set, add, observe or expire", op.Name, op.Action)
	}
	if len(op.Buckets) > 0 && op.Action != MetricObserve {
		return op, fmt.Errorf("%s %s: buckets are for observe only", op.Action, op.Name)
	}
	return op, nil
}

// lineOf is the 1-based line of the first non-space byte at or after offset.
func lineOf(data []byte, offset int64) int {
	offset = min(offset, int64(len(data)))
	rest := data[offset:]
	skipped := len(rest) - len(bytes.TrimLeft(rest, " \t\r\n"))
	return bytes.Count(data[:offset+int64(skipped)], []byte("\n")) + 1
}

// DefaultGroup gives the operations without a group the group name: a
// batch hook's metrics are grouped by the hook's name, as today's original
// does (UPSTREAM.md §1.5), so that each run's replace the previous run's.
func DefaultGroup(ops []MetricOp, name string) {
	for i := range ops {
		if ops[i].Group == "" {
			ops[i].Group = name
		}
	}
}
