package httpapi

import (
	"context"
	"net"
	"net/http"
	"strconv"
	"time"
)

// followerHeader marks a follower's question to the leader.
const followerHeader = "X-Addon-Operator-Follower"

// leaderTimeout bounds a follower's question to the leader, as the
// original's does.
const leaderTimeout = 3 * time.Second

// The texts of a follower's /readyz, the original's, which probes and
// scripts written for it may match.
const (
	FollowerReady     = "HA mode is enabled and waiting for acquiring the lock."
	NoLeader          = "HA mode is enabled but no leader is elected"
	LeaderUnreachable = "HA mode is enabled but couldn't send a request to the leader"
	LeaderNotReady    = "HA mode is enabled but the leader's status response code isn't OK"
)

// leaderReadiness answers a follower's /readyz with the leader's: 200 when
// the leader answers 200 on its /readyz, else 500 with the reason.
func leaderReadiness(ctx context.Context, w http.ResponseWriter, host string, port int) {
	if host == "" {
		http.Error(w, NoLeader, http.StatusInternalServerError)
		return
	}
	ctx, cancel := context.WithTimeout(ctx, leaderTimeout)
	defer cancel()
	url := "http://" + net.JoinHostPort(host, strconv.Itoa(port)) + "/readyz"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		http.Error(w, "HA mode is enabled but couldn't craft a request to the leader", http.StatusInternalServerError)
		return
	}
	req.Header.Set(followerHeader, "1")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		http.Error(w, LeaderUnreachable, http.StatusInternalServerError)
		return
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		http.Error(w, LeaderNotReady, http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	_, _ = w.Write([]byte(FollowerReady + "\n"))
}
