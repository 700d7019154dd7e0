package httpauth

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"time"

	authnv1 "k8s.io/api/authentication/v1"
)

// Reviewer asks the apiserver who a token belongs to and what its user may
// do.
type Reviewer interface {
	// ReviewToken returns the token's user; false when the token is not
	// valid (an error is the apiserver's, not the token's).
	ReviewToken(ctx context.Context, token string) (authnv1.UserInfo, bool, error)
	// MayGet says whether user may get the non-resource URL path.
	MayGet(ctx context.Context, user authnv1.UserInfo, path string) (bool, error)
}

// Options configure a Filter.
type Options struct {
	Reviewer Reviewer
	// Now is the clock of the cache.
	Now func() time.Time
	Log *slog.Logger
	// AllowTTL and DenyTTL are how long a decision is kept; MaxEntries
	// bounds the decisions kept. Zero: DefaultOptions' values.
	AllowTTL, DenyTTL time.Duration
	MaxEntries        int
	// Refused, if set, is told of each request refused: the path and the
	// code (401, 403, or 500 when the review failed).
	Refused func(path string, code int)
}

// The defaults: a scraper's token is reviewed once a minute per path; a
// refusal is asked again after 10 s (a binding just added takes effect
// soon).
const (
	DefaultAllowTTL   = time.Minute
	DefaultDenyTTL    = 10 * time.Second
	DefaultMaxEntries = 1024
)

// Filter lets through the requests whose bearer token's user may get
// their path.
type Filter struct {
	reviewer Reviewer
	log      *slog.Logger
	cache    *cache
	allowTTL time.Duration
	denyTTL  time.Duration
	refused  func(path string, code int)
}

// New returns a Filter.
func New(o Options) *Filter {
	if o.AllowTTL == 0 {
		o.AllowTTL = DefaultAllowTTL
	}
	if o.DenyTTL == 0 {
		o.DenyTTL = DefaultDenyTTL
	}
	if o.MaxEntries == 0 {
		o.MaxEntries = DefaultMaxEntries
	}
	if o.Refused == nil {
		o.Refused = func(string, int) {}
	}
	return &Filter{reviewer: o.Reviewer, log: o.Log, cache: newCache(o.MaxEntries, o.Now),
		allowTTL: o.AllowTTL, denyTTL: o.DenyTTL, refused: o.Refused}
}

// Wrap guards next: 401 without a valid bearer token, 403 when its user
// may not get the path, 500 when the apiserver cannot tell (never let
// through).
func (f *Filter) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		token, ok := bearer(r)
		if !ok {
			f.refuse(w, r.URL.Path, http.StatusUnauthorized)
			return
		}
		out, err := f.decide(r.Context(), token, r.URL.Path)
		switch {
		case err != nil:
			f.log.Error("HTTP request not authorized: the review failed", "path", r.URL.Path, "error", err)
			f.refuse(w, r.URL.Path, http.StatusInternalServerError)
		case out == unauthenticated:
			f.refuse(w, r.URL.Path, http.StatusUnauthorized)
		case out == forbidden:
			f.log.Debug("HTTP request forbidden", "path", r.URL.Path)
			f.refuse(w, r.URL.Path, http.StatusForbidden)
		default:
			next.ServeHTTP(w, r)
		}
	})
}

// refuse answers with code and counts it.
func (f *Filter) refuse(w http.ResponseWriter, path string, code int) {
	f.refused(path, code)
	text := http.StatusText(code)
	switch code {
	case http.StatusUnauthorized:
		w.Header().Set("WWW-Authenticate", `Bearer realm="addon-operator"`)
	case http.StatusForbidden:
		text += ": may not get " + path
	case http.StatusInternalServerError:
		text += ": the authorization review failed"
	}
	http.Error(w, text, code)
}

// bearer is the request's bearer token.
func bearer(r *http.Request) (string, bool) {
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	token = strings.TrimSpace(token)
	return token, token != ""
}

// outcome is a decision on a token and a path.
type outcome int

const (
	allowed outcome = iota
	unauthenticated
	forbidden
)

// decide is the cached decision, else the apiserver's, then cached.
func (f *Filter) decide(ctx context.Context, token, path string) (outcome, error) {
	key := keyOf(token, path)
	if out, ok := f.cache.get(key); ok {
		return out, nil
	}
	out, err := f.review(ctx, token, path)
	if err != nil {
		return 0, err
	}
	ttl := f.denyTTL
	if out == allowed {
		ttl = f.allowTTL
	}
	f.cache.put(key, out, ttl)
	return out, nil
}

func (f *Filter) review(ctx context.Context, token, path string) (outcome, error) {
	user, ok, err := f.reviewer.ReviewToken(ctx, token)
	if err != nil || !ok {
		return unauthenticated, err
	}
	may, err := f.reviewer.MayGet(ctx, user, path)
	if err != nil || !may {
		return forbidden, err
	}
	return allowed, nil
}
