package server

import (
	"encoding/json"
	"errors"
	"mime"
	"net/http"
)

// maxReviewBytes bounds a review body (the apiserver's own request limit
// is 3 MiB per object; conversion reviews carry lists).
const maxReviewBytes = 64 << 20

// routes is a server's handler: GET /healthz and POST of reviews.
func routes(post http.HandlerFunc) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) })
	mux.HandleFunc("POST /", requireJSON(post))
	return mux
}

func requireJSON(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		mediaType, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if err != nil || mediaType != "application/json" {
			http.Error(w, "Content-Type must be application/json", http.StatusUnsupportedMediaType)
			return
		}
		next(w, r)
	}
}

// errMissingRequest is a review without a request.
var errMissingRequest = errors.New("Missing parameters: request") //nolint:staticcheck // shell-operator's words

// decodeReview reads a review into review; hasRequest says whether it
// carried a request.
func decodeReview(r *http.Request, review any, hasRequest func() bool) error {
	if err := json.NewDecoder(http.MaxBytesReader(nil, r.Body, maxReviewBytes)).Decode(review); err != nil {
		return errors.New("Invalid JSON payload") //nolint:staticcheck // shell-operator's words
	}
	if !hasRequest() {
		return errMissingRequest
	}
	return nil
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	// An error means the apiserver hung up; it has applied failurePolicy.
	_ = json.NewEncoder(w).Encode(v)
}
