package server

import (
	"encoding/json"
	"io"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// peekBytes bounds what is read of a review sent to a path no hook is
// bound to: enough for its kind, apiVersion and request.uid, which the
// apiserver writes first, never the objects after them.
const peekBytes = 16 << 10

// peekAdmission reads the head of an admission review from at most
// peekBytes of body: its type (v1 unless it says otherwise) and its
// request's uid (empty when not within the bound), for a reply in
// shell-operator's shape; the rest of the body is never read.
func peekAdmission(body io.Reader) (tm metav1.TypeMeta, uid types.UID) {
	tm = metav1.TypeMeta{Kind: "AdmissionReview", APIVersion: "admission.k8s.io/v1"}
	dec := json.NewDecoder(io.LimitReader(body, peekBytes))
	if !enterObject(dec) {
		return tm, ""
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return tm, ""
		}
		switch key {
		case "kind":
			_ = dec.Decode(&tm.Kind)
		case "apiVersion":
			_ = dec.Decode(&tm.APIVersion)
		case "request":
			return tm, peekUID(dec)
		default:
			if skipValue(dec) != nil {
				return tm, ""
			}
		}
	}
	return tm, ""
}

// peekUID is the uid of the request object dec is at.
func peekUID(dec *json.Decoder) types.UID {
	if !enterObject(dec) {
		return ""
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return ""
		}
		if key == "uid" {
			var uid types.UID
			_ = dec.Decode(&uid)
			return uid
		}
		if skipValue(dec) != nil {
			return ""
		}
	}
	return ""
}

func enterObject(dec *json.Decoder) bool {
	t, err := dec.Token()
	return err == nil && t == json.Delim('{')
}

// skipValue passes over one value token by token, so that a long string
// or a deep object costs no more than the bounded reader holds.
func skipValue(dec *json.Decoder) error {
	depth := 0
	for {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return nil
		}
	}
}
