package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"sync"
)

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

// decodeReview decodes body into review; hasRequest says whether it
// carried a request.
func decodeReview(body []byte, review any, hasRequest func() bool) error {
	if err := json.Unmarshal(body, review); err != nil {
		return errors.New("Invalid JSON payload") //nolint:staticcheck // shell-operator's words
	}
	if !hasRequest() {
		return errMissingRequest
	}
	return nil
}

// enter admits a review to a server whose path is served: a place within
// the global bounds on reviews in flight, counted with its Content-Length
// (none: 503 at once), then its body within limit (past it: 413). ok
// false: the reply is written; else release gives the place back when the
// review is answered.
func (d *Dispatcher) enter(w http.ResponseWriter, r *http.Request, server string, limit int64) (body []byte, release func(), ok bool) {
	size := r.ContentLength
	if size < 0 || size > limit { // chunked: it may take the cap
		size = limit
	}
	leave, ok := d.inFlight.tryEnter(size)
	if !ok {
		// No Retry-After: the apiserver does not retry, it applies the
		// webhook's failurePolicy now instead of waiting for its timeout.
		d.metrics.refused.WithLabelValues(server, "busy").Inc()
		w.Header().Set("Connection", "close")
		http.Error(w, fmt.Sprintf("webhook server busy: %d reviews or %d bytes of bodies in flight at most",
			d.cfg.MaxInFlight, d.cfg.MaxInFlightBytes), http.StatusServiceUnavailable)
		return nil, nil, false
	}
	d.metrics.inFlight.Inc()
	release = sync.OnceFunc(func() { d.metrics.inFlight.Dec(); leave() })
	body, err := readBody(w, r, limit)
	var tooLarge errTooLarge
	switch {
	case errors.As(err, &tooLarge):
		d.metrics.refused.WithLabelValues(server, "too_large").Inc()
		w.Header().Set("Connection", "close")
		http.Error(w, err.Error(), http.StatusRequestEntityTooLarge)
	case err != nil:
		http.Error(w, "Invalid JSON payload", http.StatusBadRequest)
	default:
		return body, release, true
	}
	release()
	return nil, nil, false
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	// An error means the apiserver hung up; it has applied failurePolicy.
	_ = json.NewEncoder(w).Encode(v)
}
