package drift

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"reflect"
	"strconv"

	"k8s.io/apimachinery/pkg/api/resource"
)

// scalarEqual reports whether the live value holds the manifest's scalar as the apiserver
// would store it: numbers by value whatever their Go type (3 == int64(3) == 3.0), a number
// and its decimal string as one (int-or-string: 8080 == "8080"), and two strings that are
// the same quantity ("500m" == "0.5", "1Gi" == "1024Mi"). Anything else must be identical.
func scalarEqual(rendered, live any) bool {
	if reflect.DeepEqual(rendered, live) {
		return true
	}
	rn, rIsNumber := number(rendered)
	ln, lIsNumber := number(live)
	if rIsNumber && lIsNumber {
		return rn == ln
	}
	rs, rIsText := text(rendered)
	ls, lIsText := text(live)
	if !rIsText || !lIsText {
		return false
	}
	return rs == ls || sameQuantity(rs, ls)
}

// secretEqual compares two values of a Secret's data: base64 strings are equal when they
// encode the same bytes.
func secretEqual(rendered, live any) bool {
	rs, rOK := rendered.(string)
	ls, lOK := live.(string)
	if !rOK || !lOK {
		return scalarEqual(rendered, live)
	}
	if rs == ls {
		return true
	}
	rb, rErr := base64.StdEncoding.DecodeString(rs)
	lb, lErr := base64.StdEncoding.DecodeString(ls)
	return rErr == nil && lErr == nil && bytes.Equal(rb, lb)
}

func sameQuantity(a, b string) bool {
	qa, err := resource.ParseQuantity(a)
	if err != nil {
		return false
	}
	qb, err := resource.ParseQuantity(b)
	return err == nil && qa.Cmp(qb) == 0
}

// number returns v as a float64 when it is a number of any of the types JSON decoders produce.
func number(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case float32:
		return float64(n), true
	case int:
		return float64(n), true
	case int32:
		return float64(n), true
	case int64:
		return float64(n), true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	}
	return 0, false
}

// text returns a string as it is and a number as its shortest decimal form.
func text(v any) (string, bool) {
	if s, ok := v.(string); ok {
		return s, true
	}
	switch n := v.(type) {
	case int:
		return strconv.Itoa(n), true
	case int32:
		return strconv.FormatInt(int64(n), 10), true
	case int64:
		return strconv.FormatInt(n, 10), true
	case json.Number:
		return n.String(), true
	}
	if f, ok := number(v); ok {
		return strconv.FormatFloat(f, 'f', -1, 64), true
	}
	return "", false
}

// isZero reports whether a manifest scalar is one the apiserver drops as empty (omitempty):
// "", false and 0.
func isZero(v any) bool {
	switch s := v.(type) {
	case string:
		return s == ""
	case bool:
		return !s
	}
	n, ok := number(v)
	return ok && n == 0
}
