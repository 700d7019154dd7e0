package webhook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	admissionv1 "k8s.io/api/admission/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// Messages of admission failures, as shell-operator words them.
const (
	MsgHookFailed     = "Hook failed"
	MsgAdmissionEmpty = "handle AdmissionReview: hook task prop error"
)

// admissionFile is what a hook writes to $VALIDATING_RESPONSE_PATH
// (alias $ADMISSION_RESPONSE_PATH). Patch is standard base64 of a JSON
// Patch array, which []byte decodes.
type admissionFile struct {
	Allowed  bool     `json:"allowed"`
	Message  string   `json:"message,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
	Patch    []byte   `json:"patch,omitempty"`
}

// Failure names why a reply is not the hook's own answer; a label of the
// errors metric.
type Failure string

// The failures.
const (
	FailureNone    Failure = ""
	FailureHook    Failure = "hook_failed"    // exit status or a file that is not JSON
	FailureEmpty   Failure = "empty_response" // the hook wrote nothing
	FailureTimeout Failure = "timeout"
	FailureNoHook  Failure = "no_hook"
)

// AdmissionResponse builds the response to request uid from the hook's
// response file and the run's error: a failed run or a file that is not
// JSON denies with 403 "Hook failed", an empty file denies with 500; a
// patch sets patchType JSONPatch; the message is used only on deny;
// warnings pass through.
func AdmissionResponse(uid types.UID, file []byte, runErr error) (*admissionv1.AdmissionResponse, Failure) {
	if runErr != nil {
		return admissionDenied(uid, http.StatusForbidden, MsgHookFailed), FailureHook
	}
	if len(bytes.TrimSpace(file)) == 0 {
		return admissionDenied(uid, http.StatusInternalServerError, MsgAdmissionEmpty), FailureEmpty
	}
	var f admissionFile
	if err := json.Unmarshal(file, &f); err != nil {
		return admissionDenied(uid, http.StatusForbidden, MsgHookFailed), FailureHook
	}
	resp := &admissionv1.AdmissionResponse{UID: uid, Allowed: f.Allowed, Warnings: f.Warnings}
	if !f.Allowed {
		resp.Result = &metav1.Status{Code: http.StatusForbidden, Message: f.Message}
	}
	if len(f.Patch) > 0 {
		patchType := admissionv1.PatchTypeJSONPatch
		resp.Patch, resp.PatchType = f.Patch, &patchType
	}
	return resp, FailureNone
}

// AdmissionNoHook is the response for a path no binding is served at.
func AdmissionNoHook(uid types.UID, configurationID, webhookID string) *admissionv1.AdmissionResponse {
	msg := fmt.Sprintf("handle AdmissionReview: no hook found for '%s' '%s'", configurationID, webhookID)
	return admissionDenied(uid, http.StatusInternalServerError, msg)
}

// AdmissionTimeout is the response when the hook did not finish within
// the binding's timeoutSeconds: what the apiserver would do by the
// binding's failurePolicy, so that a reply racing the apiserver's own
// timeout means the same: Ignore allows with a warning, Fail denies.
func AdmissionTimeout(uid types.UID, a Admission, after time.Duration) *admissionv1.AdmissionResponse {
	msg := fmt.Sprintf("webhook %s: hook %s did not answer within %s", a.Name, a.Hook, after)
	if a.Ignores() {
		return &admissionv1.AdmissionResponse{UID: uid, Allowed: true, Warnings: []string{msg + "; allowed by failurePolicy Ignore"}}
	}
	return admissionDenied(uid, http.StatusInternalServerError, msg)
}

func admissionDenied(uid types.UID, code int32, msg string) *admissionv1.AdmissionResponse {
	return &admissionv1.AdmissionResponse{UID: uid, Result: &metav1.Status{Code: code, Message: msg}}
}

// AdmissionReply is the review sent back: the incoming one's apiVersion
// and kind, the response, no request.
func AdmissionReply(in *admissionv1.AdmissionReview, resp *admissionv1.AdmissionResponse) *admissionv1.AdmissionReview {
	return &admissionv1.AdmissionReview{TypeMeta: in.TypeMeta, Response: resp}
}
