package httpauth_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	authnv1 "k8s.io/api/authentication/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/httpauth"
	"github.com/addon-actors/addon-operator/test/scenario"
)

// counting is the apiserver's reviewer, counting the reviews it asks for.
type counting struct {
	httpauth.KubeReviewer
	reviews atomic.Int64
}

func (c *counting) ReviewToken(ctx context.Context, token string) (authnv1.UserInfo, bool, error) {
	c.reviews.Add(1)
	return c.KubeReviewer.ReviewToken(ctx, token)
}

func (c *counting) MayGet(ctx context.Context, user authnv1.UserInfo, path string) (bool, error) {
	c.reviews.Add(1)
	return c.KubeReviewer.MayGet(ctx, user, path)
}

func serve(h http.Handler, path, token string) int {
	req := httptest.NewRequest(http.MethodGet, path, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code
}

// Against the real apiserver: no token or a bad one is 401, a
// ServiceAccount not bound to the rule is 403, one bound to it is 200 on
// the rule's path only. A decision is kept for its TTL on the injected
// clock: a scrape within it asks no review, one after it asks again.
func TestTokenAndAccessReviews(t *testing.T) {
	client, ns := kube.Client(t), kube.Namespace(t)
	reader, stranger := scenario.ServiceAccountToken(t, client, ns, "reader"), scenario.ServiceAccountToken(t, client, ns, "stranger")
	scenario.CreateClusterRole(t, client, &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: ns + "-metrics"},
		Rules: []rbacv1.PolicyRule{{NonResourceURLs: []string{"/metrics"}, Verbs: []string{"get"}}}})
	scenario.BindClusterRole(t, client, ns, "reader", ns+"-metrics", "/metrics")

	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	reviewer := &counting{KubeReviewer: httpauth.KubeReviewer{Client: client}}
	var refused []string
	filter := httpauth.New(httpauth.Options{Reviewer: reviewer, Now: func() time.Time { return now },
		Log: slog.New(slog.DiscardHandler), AllowTTL: time.Minute, DenyTTL: 10 * time.Second,
		Refused: func(path string, code int) { refused = append(refused, fmt.Sprint(path, " ", code)) }})
	h := filter.Wrap(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {}))
	cases := []struct {
		name, path, token string
		want              int
	}{
		{"no token", "/metrics", "", 401},
		{"a token the apiserver did not issue", "/metrics", "not-a-token", 401},
		{"a ServiceAccount without the rule", "/metrics", stranger, 403},
		{"a ServiceAccount with the rule", "/metrics", reader, 200},
		{"the same ServiceAccount on a path the rule lacks", "/queue", reader, 403},
	}
	for _, tc := range cases {
		if got := serve(h, tc.path, tc.token); got != tc.want {
			t.Errorf("%s: GET %s answered %d, want %d", tc.name, tc.path, got, tc.want)
		}
	}
	if want := "[/metrics 401 /metrics 401 /metrics 403 /queue 403]"; fmt.Sprint(refused) != want {
		t.Errorf("refusals counted %v, want %s", refused, want)
	}
	asked := reviewer.reviews.Load()
	for range 4 { // a minute of scrapes every 15 s
		now = now.Add(14 * time.Second)
		if got := serve(h, "/metrics", reader); got != 200 {
			t.Fatalf("a cached scrape answered %d", got)
		}
	}
	if n := reviewer.reviews.Load() - asked; n != 0 {
		t.Fatalf("scrapes within the TTL asked %d reviews, want none", n)
	}
	cachedStart := time.Now()
	serve(h, "/metrics", reader)
	cached := time.Since(cachedStart)
	now = now.Add(5 * time.Second)
	reviewedStart := time.Now()
	if got := serve(h, "/metrics", reader); got != 200 || reviewer.reviews.Load()-asked != 2 {
		t.Fatalf("after the TTL: %d with %d reviews, want 200 with a TokenReview and a SubjectAccessReview", got, reviewer.reviews.Load()-asked)
	}
	t.Logf("a request reviewed by the apiserver took %s, a cached one %s", time.Since(reviewedStart), cached)
}

// An apiserver that cannot be reached is a 500 and a log line naming the
// review, never a request let through.
func TestReviewErrorIsNeverABypass(t *testing.T) {
	gone, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_ = gone.Close() // nothing listens there now
	client := kubernetes.NewForConfigOrDie(&rest.Config{Host: "http://" + gone.Addr().String()})
	var logs bytes.Buffer
	filter := httpauth.New(httpauth.Options{Reviewer: httpauth.KubeReviewer{Client: client}, Now: time.Now,
		Log: slog.New(slog.NewTextHandler(&logs, nil))})
	reached := false
	h := filter.Wrap(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { reached = true }))
	if got := serve(h, "/metrics", "some-token"); got != 500 || reached {
		t.Fatalf("apiserver down: %d, handler reached %t; want 500 and not reached", got, reached)
	}
	if !strings.Contains(logs.String(), "TokenReview") || !strings.Contains(logs.String(), "path=/metrics") {
		t.Fatalf("log does not name the review and the path:\n%s", logs.String())
	}
}
