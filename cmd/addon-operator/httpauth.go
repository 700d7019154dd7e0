package main

import (
	"fmt"
	"net/http"
	"time"

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

// guard is the HTTP port's guard of ADDON_OPERATOR_HTTP_AUTH: nil when off.
func (p *process) guard() (func(http.Handler) http.Handler, error) {
	if p.s.HTTPAuth != settings.HTTPAuthKubernetes {
		return nil, nil
	}
	cfg := rest.CopyConfig(p.cfg)
	cfg.QPS, cfg.Burst, cfg.Timeout = reviewQPS, reviewBurst, reviewTimeout
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("ADDON_OPERATOR_HTTP_AUTH=%s: the reviews' client: %w", p.s.HTTPAuth, err)
	}
	p.log.Info("HTTP port guarded: /metrics, /metrics/hooks and /queue need a bearer token allowed to get the path",
		"auth", p.s.HTTPAuth)
	filter := httpauth.New(httpauth.Options{Reviewer: httpauth.KubeReviewer{Client: client},
		Now: supervision.RealClock{}.Now, Log: p.log})
	return filter.Wrap, nil
}
