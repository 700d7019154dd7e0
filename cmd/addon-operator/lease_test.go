package main

import "testing"

// The Lease identity is the original's when the port listens on the pod's
// IP, so that a follower of either operator finds the leader's address in
// it; the leader's host is read back from it.
func TestLeaseIdentityAndLeaderHost(t *testing.T) {
	cases := []struct {
		pod, listen, ns string
		identity, host  string
	}{
		{"ao-7f9c-x2", "10.244.1.7", "addons", "ao-7f9c-x2.10-244-1-7.addons.pod", "10.244.1.7"},
		{"replica-b", "127.0.0.2", "e2e-1", "replica-b.127-0-0-2.e2e-1.pod", "127.0.0.2"},
		// Listening on every address: the pod's name, which is the host.
		{"ao-1", "0.0.0.0", "addons", "ao-1", "ao-1"},
		{"ao-1", "", "addons", "ao-1", "ao-1"},
		// A pod name with dots still parses from the end.
		{"ao.v2", "10.0.0.9", "ns", "ao.v2.10-0-0-9.ns.pod", "10.0.0.9"},
	}
	for _, tc := range cases {
		id := leaseIdentity(tc.pod, tc.listen, tc.ns)
		if id != tc.identity {
			t.Errorf("leaseIdentity(%q, %q, %q) = %q, want %q", tc.pod, tc.listen, tc.ns, id, tc.identity)
		}
		if host := leaderHost(id); host != tc.host {
			t.Errorf("leaderHost(%q) = %q, want %q", id, host, tc.host)
		}
	}
	// An identity of the original's form with something else where the
	// IP goes is used as a host name, as the original does.
	if host := leaderHost("a.not-an-ip.ns.pod"); host != "a.not-an-ip.ns.pod" {
		t.Errorf("leaderHost of a name %q", host)
	}
}
