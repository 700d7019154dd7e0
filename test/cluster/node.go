package cluster

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// NodeName is the name of the one node that StartWithNode registers.
const NodeName = "testcluster-node"

// nodeDir holds everything of the node mode inside the cluster dir.
const nodeDir = "node"

// The node's processes, in start order; Stop stops them in reverse.
func containerdServer(dir string) server { return server{name: "containerd", dir: dir} }
func controllerManagerServer(dir string) server {
	return server{name: "kube-controller-manager", dir: dir}
}
func schedulerServer(dir string) server { return server{name: "kube-scheduler", dir: dir} }
func kubeletServer(dir string) server   { return server{name: "kubelet", dir: dir} }

func nodeServers(dir string) []server {
	return []server{containerdServer(dir), controllerManagerServer(dir), schedulerServer(dir), kubeletServer(dir)}
}

// nodeIdentity names what the node creates on the host outside dir (a cgroup
// root, a bridge, a CNI network), derived from dir so that clusters in two
// dirs never share them and Stop finds them again without a record.
type nodeIdentity struct {
	CgroupRoot string // "/testcluster-<hash>", under every v1 hierarchy
	Bridge     string // at most 15 bytes, a Linux interface name
	Network    string // the CNI network name
	Subnet     string // the pods' /24
}

func identityOf(dir string) nodeIdentity {
	sum := sha256.Sum256([]byte(dir))
	h := hex.EncodeToString(sum[:])[:10]
	return nodeIdentity{
		CgroupRoot: "/testcluster-" + h,
		Bridge:     "tc" + h,
		Network:    "testcluster-" + h,
		Subnet:     fmt.Sprintf("10.%d.%d.0/24", 200+int(sum[5])%50, sum[6]),
	}
}

// StartWithNode is Start plus one node that schedules and runs pods:
// containerd and runc from the host's packages, the CNI bridge plugin from
// /usr/lib/cni, and kube-controller-manager, kube-scheduler and kubelet built
// like the apiserver. Pods run the locally built PauseImage or what
// ImportImage adds (no registry). In-cluster clients work: a pod gets its
// ServiceAccount's token and CA, and the kubernetes Service's address
// (10.0.0.1:443, which a nat rule forwards to the apiserver; no kube-proxy).
// It returns once the node is Ready and the controller manager has created
// the default ServiceAccount. Stop stops the node too.
func StartWithNode(ctx context.Context, dir string, opts Options) (*Cluster, error) {
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	nodeIP, err := hostIP()
	if err != nil {
		return nil, err
	}
	opts.nodeIP = nodeIP
	c, err := Start(ctx, dir, opts)
	if err != nil {
		return nil, err
	}
	if c.Reused {
		if err := reuseNode(c.Dir); err != nil {
			return nil, err
		}
		return c, nil
	}
	bins, err := EnsureBinaries(ctx, opts.Log)
	if err == nil {
		err = executables(bins.nodePaths())
	}
	if err == nil {
		err = startNode(ctx, c, bins, opts)
	}
	if err != nil {
		return nil, errors.Join(err, Stop(c.Dir))
	}
	return c, nil
}

// reuseNode accepts a running cluster only when its whole node runs too.
func reuseNode(dir string) error {
	for _, s := range nodeServers(dir) {
		if _, up := s.running(); !up {
			return fmt.Errorf("%w: %s runs a control plane without a running %s; run `testcluster stop %s` first", ErrStale, dir, s.name, dir)
		}
	}
	return nil
}

func startNode(ctx context.Context, c *Cluster, bins Binaries, opts Options) error {
	begin := time.Now()
	id := identityOf(c.Dir)
	ports, err := FreePorts(2)
	if err != nil {
		return err
	}
	nodeIP := opts.nodeIP
	layout, err := writeNodeConfig(c.Dir, id, nodeIP, ports)
	if err != nil {
		return err
	}
	if err := createCgroupRoot(id.CgroupRoot); err != nil {
		return err
	}
	if err := forwardService(id, nodeIP, c.apiPort); err != nil {
		return err
	}
	exits := map[string]<-chan error{}
	if err := startContainerd(ctx, c.Dir, layout, opts.DieWithParent); err != nil {
		return err
	}
	if err := importPauseImage(ctx, layout, bins.Pause); err != nil {
		return err
	}
	for _, s := range []struct {
		srv  server
		bin  string
		args []string
	}{
		{controllerManagerServer(c.Dir), bins.ControllerManager, controllerManagerArgs(c)},
		{schedulerServer(c.Dir), bins.Scheduler, schedulerArgs(c)},
		{kubeletServer(c.Dir), bins.Kubelet, kubeletArgs(c, layout, nodeIP)},
	} {
		cmd, err := s.srv.start(s.bin, s.args, opts.DieWithParent)
		if err != nil {
			return err
		}
		exits[s.srv.name] = reaped(cmd) // no zombie while the starting process lives
	}
	if err := waitNodeReady(ctx, c, exits); err != nil {
		return err
	}
	fmt.Fprintf(opts.Log, "testcluster: node %s ready in %s\n", NodeName, time.Since(begin).Round(time.Millisecond))
	return nil
}

func controllerManagerArgs(c *Cluster) []string {
	return []string{
		"--kubeconfig=" + c.Kubeconfig,
		"--service-account-private-key-file=" + filepath.Join(c.Dir, "sa.key"),
		"--root-ca-file=" + filepath.Join(c.Dir, "pki", "apiserver.crt"),
		"--leader-elect=false",
		"--secure-port=0",
		"--profiling=false",
		"--controllers=*",
	}
}

func schedulerArgs(c *Cluster) []string {
	return []string{
		"--kubeconfig=" + c.Kubeconfig,
		"--leader-elect=false",
		"--secure-port=0",
		"--profiling=false",
	}
}

func kubeletArgs(c *Cluster, l nodeLayout, nodeIP string) []string {
	return []string{
		"--config=" + l.KubeletConfig,
		"--kubeconfig=" + c.Kubeconfig,
		"--root-dir=" + l.KubeletRoot,
		"--cert-dir=" + filepath.Join(l.KubeletRoot, "pki"),
		"--hostname-override=" + NodeName,
		"--node-ip=" + nodeIP,
	}
}

// waitNodeReady waits for the node to report Ready (kubelet registered,
// containerd's CRI and CNI up) and for the default ServiceAccount (the
// controller manager runs). Any node process that exits fails the wait,
// with its exit status when exits has it (a kubelet that exits at once may
// leave an empty log: klog had not flushed).
func waitNodeReady(ctx context.Context, c *Cluster, exits map[string]<-chan error) error {
	client, err := Clientset(c.Kubeconfig)
	if err != nil {
		return err
	}
	deadline := time.NewTimer(readyTimeout)
	defer deadline.Stop()
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		if err := nodeExited(c.Dir, exits); err != nil {
			return err
		}
		check := nodeReady(ctx, client)
		if check == nil {
			return nil
		}
		select {
		case <-deadline.C:
			s := kubeletServer(c.Dir)
			return fmt.Errorf("node not ready after %s (%v); last lines of %s:\n%s", readyTimeout, check, s.logFile(), s.logTail(30))
		case <-ctx.Done():
			return fmt.Errorf("node start-up: %w", ctx.Err())
		case <-tick.C:
		}
	}
}

// nodeExited is an error for a node process that exited: one this process
// started and reaps is known by its Wait (the /proc check once took a
// running kubelet for gone), the others (a reused node's) by their PID.
func nodeExited(dir string, exits map[string]<-chan error) error {
	for _, s := range nodeServers(dir) {
		exited, reaped := exits[s.name]
		if !reaped {
			if _, up := s.running(); up {
				continue
			}
			return fmt.Errorf("%s exited during start-up; last lines of %s:\n%s", s.name, s.logFile(), s.logTail(30))
		}
		select {
		case err := <-exited:
			if err == nil {
				err = errors.New("exit status 0")
			}
			return fmt.Errorf("%s exited during start-up (%v); last lines of %s:\n%s", s.name, err, s.logFile(), s.logTail(30))
		default:
		}
	}
	return nil
}

func nodeReady(ctx context.Context, client kubernetes.Interface) error {
	node, err := client.CoreV1().Nodes().Get(ctx, NodeName, metav1.GetOptions{})
	if err != nil {
		return err
	}
	ready := false
	for _, cond := range node.Status.Conditions {
		if cond.Type == corev1.NodeReady && cond.Status == corev1.ConditionTrue {
			ready = true
		}
	}
	if !ready {
		return fmt.Errorf("node %s not Ready", NodeName)
	}
	_, err = client.CoreV1().ServiceAccounts("default").Get(ctx, "default", metav1.GetOptions{})
	return err
}

// stopNode stops the node's processes (kubelet first, so that it restarts
// no container), kills what runs in the node's cgroups and the shims,
// unmounts what they left under dir and removes the cgroups and the bridge.
func stopNode(dir string) error {
	if _, err := os.Stat(filepath.Join(dir, nodeDir)); err != nil {
		return nil // a node-less cluster
	}
	var errs []error
	servers := nodeServers(dir)
	for i := len(servers) - 1; i >= 1; i-- {
		errs = append(errs, servers[i].stop(10*time.Second))
	}
	id := identityOf(dir)
	errs = append(errs, killCgroup(id.CgroupRoot))
	errs = append(errs, containerdServer(dir).stop(10*time.Second))
	errs = append(errs, killShims(filepath.Join(dir, nodeDir)))
	errs = append(errs, unmountUnder(filepath.Join(dir, nodeDir)))
	errs = append(errs, removeHostFiles(layoutOf(dir), id))
	errs = append(errs, removeCgroup(id.CgroupRoot), removeBridge(id.Bridge), removeServiceForward(id))
	return errors.Join(errs...)
}
