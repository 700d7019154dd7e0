package httpapi_test

import (
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/httpapi"
	"github.com/addon-actors/addon-operator/messages"
)

// A follower's /readyz answers with the leader's readiness, asked on the
// leader's host at the follower's own port number (UPSTREAM.md §4): the
// leader here is this package's handler on a loopback port.
func TestFollowerAnswersWithTheLeadersReadiness(t *testing.T) {
	leaderReady := false
	leader := httptest.NewServer(httpapi.NewHandler(httpapi.Options{Ready: func() bool { return leaderReady },
		Queue: func() messages.QueueSnapshot { return messages.QueueSnapshot{} }}))
	defer leader.Close()
	host, port := splitHostPort(t, leader.Listener.Addr())
	gone := closedPort(t)
	cases := []struct {
		name        string
		leaderReady bool
		host        string
		port        int
		want        int
		text        string
	}{
		{"the leader is ready", true, host, port, 200, httpapi.FollowerReady},
		{"the leader converges", false, host, port, 500, httpapi.LeaderNotReady},
		{"no leader elected", true, "", port, 500, httpapi.NoLeader},
		{"the leader does not answer", true, host, gone, 500, httpapi.LeaderUnreachable},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			leaderReady = tc.leaderReady
			follower := httpapi.NewHandler(httpapi.Options{Ready: func() bool { return false },
				Leader:     func() (string, bool) { return tc.host, true },
				LeaderPort: tc.port})
			if code, body := get(t, follower, "/readyz"); code != tc.want || strings.TrimSpace(body) != tc.text {
				t.Fatalf("follower /readyz %d %q, want %d %q", code, body, tc.want, tc.text)
			}
		})
	}
	// A follower whose "leader" is a follower that names itself as the
	// leader: the question is answered once, not in a loop.
	loop := httptest.NewUnstartedServer(nil)
	loopHost, loopPort := splitHostPort(t, loop.Listener.Addr())
	asks := 0
	self := httpapi.NewHandler(httpapi.Options{Ready: func() bool { return false },
		Leader: func() (string, bool) { return loopHost, true }, LeaderPort: loopPort})
	loop.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { asks++; self.ServeHTTP(w, r) })
	loop.Start()
	defer loop.Close()
	if code, body := get(t, self, "/readyz"); code != 500 || strings.TrimSpace(body) != httpapi.LeaderNotReady || asks != 1 {
		t.Fatalf("follower asking a follower: %d %q after %d questions", code, body, asks)
	}
	// The leader, and a replica before its candidacy, answer for
	// themselves.
	own := httpapi.NewHandler(httpapi.Options{Ready: func() bool { return true },
		Leader: func() (string, bool) { return "", false }, LeaderPort: gone})
	if code, body := get(t, own, "/readyz"); code != 200 || strings.TrimSpace(body) != "Startup converge done." {
		t.Fatalf("leader /readyz %d %q", code, body)
	}
}

func splitHostPort(t *testing.T, addr net.Addr) (string, int) {
	t.Helper()
	tcp, ok := addr.(*net.TCPAddr)
	if !ok {
		t.Fatalf("address %v", addr)
	}
	return tcp.IP.String(), tcp.Port
}

// closedPort is a loopback port nothing listens on.
func closedPort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_, port := splitHostPort(t, l.Addr())
	_ = l.Close()
	return port
}
