package main

import (
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/httpauth"
	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/settings"
	"github.com/addon-actors/addon-operator/supervision"
)

// The reviews' own client: its limits keep a flood of made-up tokens (each
// a TokenReview) from taking the operator's API budget, and a slow
// apiserver from holding a request for long.
const (
	reviewQPS     = 20
	reviewBurst   = 40
	reviewTimeout = 10 * time.Second
)

// guard is the HTTP port's guard of ADDON_OPERATOR_HTTP_AUTH (nil when
// off), and the registry of its metric, which /metrics serves besides the
// operator's.
func (p *process) guard() (func(http.Handler) http.Handler, *prometheus.Registry, error) {
	reg := prometheus.NewRegistry()
	if p.s.HTTPAuth != settings.HTTPAuthKubernetes {
		return nil, reg, nil
	}
	cfg := rest.CopyConfig(p.cfg)
	cfg.QPS, cfg.Burst, cfg.Timeout = reviewQPS, reviewBurst, reviewTimeout
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, nil, fmt.Errorf("ADDON_OPERATOR_HTTP_AUTH=%s: the reviews' client: %w", p.s.HTTPAuth, err)
	}
	refused := prometheus.NewCounterVec(prometheus.CounterOpts{Name: p.s.MetricsPrefix + "http_requests_refused_total",
		Help: "Requests to the HTTP port refused by ADDON_OPERATOR_HTTP_AUTH: code 401 (no valid bearer token), " +
			"403 (its user may not get the path), 500 (the apiserver's review failed)."}, []string{"path", "code"})
	reg.MustRegister(refused)
	p.log.Info("HTTP port guarded: /metrics, /metrics/hooks and /queue need a bearer token allowed to get the path",
		"auth", p.s.HTTPAuth)
	filter := httpauth.New(httpauth.Options{Reviewer: httpauth.KubeReviewer{Client: client},
		Now: supervision.RealClock{}.Now, Log: p.log,
		Refused: func(path string, code int) { refused.WithLabelValues(path, strconv.Itoa(code)).Inc() }})
	return filter.Wrap, reg, nil
}
