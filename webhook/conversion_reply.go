package webhook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
)

// MsgConversionEmpty is the failure for an empty conversion response file.
const MsgConversionEmpty = "handle ConversionReview: hook task prop error"

// conversionFile is what a hook writes to $CONVERSION_RESPONSE_PATH.
type conversionFile struct {
	ConvertedObjects []runtime.RawExtension `json:"convertedObjects,omitempty"`
	FailedMessage    string                 `json:"failedMessage,omitempty"`
}

// ConvertedObjects reads one step's result from the hook's response file
// and the run's error; want is the number of objects the step was given.
// The error's text is the failure message the reply carries.
func ConvertedObjects(file []byte, runErr error, want int, desired string) ([]runtime.RawExtension, error) {
	failed := fmt.Errorf("Hook failed to convert to %s", desired) //nolint:staticcheck // shell-operator's words
	if runErr != nil {
		return nil, failed
	}
	if len(bytes.TrimSpace(file)) == 0 {
		return nil, errors.New(MsgConversionEmpty)
	}
	var f conversionFile
	if err := json.Unmarshal(file, &f); err != nil {
		return nil, failed
	}
	if f.FailedMessage != "" {
		return nil, errors.New(f.FailedMessage)
	}
	if len(f.ConvertedObjects) != want {
		return nil, fmt.Errorf("hook returned %d objects instead of %d", len(f.ConvertedObjects), want)
	}
	return f.ConvertedObjects, nil
}

// ConversionTimeoutError is the failure when a step's hook did not finish
// in time.
func ConversionTimeoutError(s Step, after time.Duration) error {
	return fmt.Errorf("hook %s did not convert %s to %s within %s", s.Binding.Hook, s.From, s.To, after)
}

// ConversionSuccess is the response carrying the converted objects.
func ConversionSuccess(uid types.UID, objects []runtime.RawExtension) *apiextensionsv1.ConversionResponse {
	return &apiextensionsv1.ConversionResponse{UID: uid, ConvertedObjects: objects,
		Result: metav1.Status{Status: metav1.StatusSuccess}}
}

// ConversionFailure is the response of a failed conversion (HTTP 200,
// result.status Failure).
func ConversionFailure(uid types.UID, err error) *apiextensionsv1.ConversionResponse {
	return &apiextensionsv1.ConversionResponse{UID: uid, ConvertedObjects: []runtime.RawExtension{},
		Result: metav1.Status{Status: metav1.StatusFailure, Message: err.Error()}}
}

// ConversionReply is the review sent back: the incoming one's apiVersion
// and kind, the response, no request.
func ConversionReply(in *apiextensionsv1.ConversionReview, resp *apiextensionsv1.ConversionResponse) *apiextensionsv1.ConversionReview {
	return &apiextensionsv1.ConversionReview{TypeMeta: in.TypeMeta, Response: resp}
}
