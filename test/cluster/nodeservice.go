package cluster

import (
	"fmt"
	"os/exec"
	"strconv"
	"strings"
)

// forwardService makes the kubernetes Service's address answer in the
// node's pods without kube-proxy: one DNAT rule in the host's nat table
// sends what the node's subnet sends to serviceIP:443 to the apiserver on
// the node's address, so that in-cluster clients (client-go, kubectl) work
// as on any cluster. The rule carries the node's network name as a comment,
// by which removeServiceForward finds it again.
func forwardService(id nodeIdentity, nodeIP string, port int) error {
	if port == 0 {
		return fmt.Errorf("forward the kubernetes Service: the apiserver's port is unknown")
	}
	args := []string{"-w", "-t", "nat", "-A", "PREROUTING", "-s", id.Subnet, "-d", serviceIP + "/32", "-p", "tcp",
		"--dport", "443", "-m", "comment", "--comment", id.Network,
		"-j", "DNAT", "--to-destination", nodeIP + ":" + strconv.Itoa(port)}
	if out, err := exec.Command("iptables", args...).CombinedOutput(); err != nil {
		return fmt.Errorf("forward the kubernetes Service to the apiserver (iptables %s): %w\n%s", strings.Join(args, " "), err, out)
	}
	return nil
}

// removeServiceForward deletes every nat rule that names the node's
// network; none is fine (a node-less cluster, or iptables absent and so no
// rule ever made).
func removeServiceForward(id nodeIdentity) error {
	if _, err := exec.LookPath("iptables"); err != nil {
		return nil
	}
	out, err := exec.Command("iptables", "-w", "-t", "nat", "-S", "PREROUTING").Output()
	if err != nil {
		return fmt.Errorf("list nat rules: %w", err)
	}
	for _, line := range strings.Split(string(out), "\n") {
		fields := strings.Fields(line)
		if len(fields) < 2 || fields[0] != "-A" || !strings.Contains(line, "--comment "+id.Network+" ") {
			continue
		}
		args := append([]string{"-w", "-t", "nat", "-D"}, fields[1:]...)
		if out, err := exec.Command("iptables", args...).CombinedOutput(); err != nil {
			return fmt.Errorf("remove nat rule %q: %w\n%s", line, err, out)
		}
	}
	return nil
}
