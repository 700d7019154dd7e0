package cluster

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Cluster is a running etcd + kube-apiserver pair recorded in Dir.
type Cluster struct {
	Dir        string
	Kubeconfig string
	// Reused is true when Start found this cluster already running in Dir.
	Reused bool
	// apiPort is the apiserver's port (0 for a reused cluster).
	apiPort int
	// dieWithParent is kept for a restarted apiserver.
	dieWithParent bool
}

// Options tune Start.
type Options struct {
	// DieWithParent kills both servers when the starting process dies. Tests
	// set it; `testcluster start`, whose servers must outlive it, does not.
	DieWithParent bool
	// Log receives progress lines (building, started); nil discards them.
	Log io.Writer
	// APIServerPort, when set, is tried first for the apiserver (a stable
	// URL for local runs); if it is taken, Start falls back to a free port.
	APIServerPort int
	// nodeIP is set by StartWithNode: the apiserver then listens on every
	// address, advertises this one (pods reach it there through the
	// kubernetes Service) and admits pods with their ServiceAccount's token.
	nodeIP string
}

const (
	readyTimeout = 90 * time.Second
	startTries   = 3
)

// ErrStale is returned when DIR holds a half-running cluster that Start will
// not guess about; `testcluster stop DIR` clears it.
var ErrStale = errors.New("cluster dir holds a partly running cluster")

// Start starts etcd and kube-apiserver on free loopback ports with their state
// in dir, writes dir/kubeconfig and returns once /readyz answers 200. A
// cluster already running and ready in dir is reused; a dir left behind by a
// killed run (PID files of dead processes) is cleaned and started afresh.
func Start(ctx context.Context, dir string, opts Options) (*Cluster, error) {
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("cluster dir: %w", err)
	}
	if c, err := reuse(ctx, dir); c != nil || err != nil {
		return c, err
	}
	bins, err := EnsureBinaries(ctx, opts.Log)
	if err != nil {
		return nil, err
	}
	var lastErr error
	for try := 1; try <= startTries; try++ {
		if err := resetDir(dir); err != nil {
			return nil, err
		}
		c, err := startOnce(ctx, dir, bins, opts)
		opts.APIServerPort = 0 // a retry takes whatever port is free
		if err == nil {
			return c, nil
		}
		_ = Stop(dir)
		lastErr = err
		if !errors.Is(err, errPortTaken) {
			break
		}
		fmt.Fprintf(opts.Log, "testcluster: a port was taken, retrying on free ports (%d/%d)\n", try, startTries)
	}
	return nil, lastErr
}

// reuse returns the cluster already running in dir, nil when nothing runs
// there, and ErrStale when only part of it runs or it is not ready.
func reuse(ctx context.Context, dir string) (*Cluster, error) {
	etcdPID, etcdUp := etcdServer(dir).running()
	apiPID, apiUp := apiServer(dir).running()
	if !etcdUp && !apiUp {
		return nil, nil
	}
	kubeconfig := filepath.Join(dir, "kubeconfig")
	if etcdUp && apiUp {
		if err := checkReady(ctx, kubeconfig); err == nil {
			return &Cluster{Dir: dir, Kubeconfig: kubeconfig, Reused: true}, nil
		}
	}
	return nil, fmt.Errorf("%w: %s (etcd running=%v pid=%d, kube-apiserver running=%v pid=%d, not ready); run `testcluster stop %s` first",
		ErrStale, dir, etcdUp, etcdPID, apiUp, apiPID, dir)
}

// resetDir removes what a previous run left in dir, keeping the directory.
func resetDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create cluster dir: %w", err)
	}
	if err := stopNode(dir); err != nil {
		return fmt.Errorf("clean the node a previous run left in %s: %w", dir, err)
	}
	names := []string{"etcd-data", "pki", "kubeconfig", "sa.key", "tokens.csv", "etcd.pid", "kube-apiserver.pid", apiArgsFile, nodeDir, kubeletCAFile, kubeletClientCertFile, kubeletClientKeyFile}
	for _, s := range nodeServers(dir) {
		names = append(names, s.name+".pid")
	}
	for _, name := range names {
		if err := os.RemoveAll(filepath.Join(dir, name)); err != nil {
			return fmt.Errorf("clean %s: %w", dir, err)
		}
	}
	return nil
}

func startOnce(ctx context.Context, dir string, bins Binaries, opts Options) (*Cluster, error) {
	ports, err := FreePorts(3)
	if err != nil {
		return nil, err
	}
	if opts.APIServerPort != 0 {
		ports[2] = opts.APIServerPort
	}
	begin := time.Now()
	etcdURL := "http://127.0.0.1:" + strconv.Itoa(ports[0])
	etcd := etcdServer(dir)
	cmd, err := etcd.start(bins.Etcd, []string{
		"--data-dir", filepath.Join(dir, "etcd-data"),
		"--listen-client-url", etcdURL,
		"--listen-peer-url", "http://127.0.0.1:" + strconv.Itoa(ports[1]),
	}, opts.DieWithParent)
	if err != nil {
		return nil, err
	}
	if err := waitUntil(ctx, etcd, reaped(cmd), func() error { return httpOK(ctx, etcdURL+"/health") }); err != nil {
		return nil, err
	}
	var extraIPs []net.IP
	if opts.nodeIP != "" {
		extraIPs = append(extraIPs, net.ParseIP(opts.nodeIP))
	}
	token, err := writeCredentials(dir, extraIPs...)
	if err != nil {
		return nil, err
	}
	api := apiServer(dir)
	args := apiServerArgs(dir, etcdURL, ports[2], opts.nodeIP)
	if err := writeArgs(dir, args); err != nil {
		return nil, err
	}
	cmd, err = api.start(bins.APIServer, args, opts.DieWithParent)
	if err != nil {
		return nil, err
	}
	kubeconfig := filepath.Join(dir, "kubeconfig")
	host := "https://127.0.0.1:" + strconv.Itoa(ports[2])
	ready := func() error {
		if err := writeKubeconfig(kubeconfig, host, token, filepath.Join(dir, "pki", "apiserver.crt")); err != nil {
			return err
		}
		return checkReady(ctx, kubeconfig)
	}
	if err := waitUntil(ctx, api, reaped(cmd), ready); err != nil {
		return nil, err
	}
	fmt.Fprintf(opts.Log, "testcluster: ready in %s at %s (kubeconfig %s)\n", time.Since(begin).Round(time.Millisecond), host, kubeconfig)
	return &Cluster{Dir: dir, Kubeconfig: kubeconfig, apiPort: ports[2], dieWithParent: opts.DieWithParent}, nil
}

// apiServerArgs are the apiserver's flags; nodeIP is empty for a node-less
// cluster (loopback only; no pod runs, so no ServiceAccount admission,
// which would refuse pods before a controller manager made their account).
func apiServerArgs(dir, etcdURL string, port int, nodeIP string) []string {
	bind, advertise, admission := "127.0.0.1", "127.0.0.1", "--disable-admission-plugins=ServiceAccount"
	if nodeIP != "" {
		bind, advertise, admission = "0.0.0.0", nodeIP, "--enable-admission-plugins=ServiceAccount"
	}
	return []string{
		"--etcd-servers=" + etcdURL,
		"--cert-dir=" + filepath.Join(dir, "pki"),
		"--bind-address=" + bind,
		"--advertise-address=" + advertise,
		"--secure-port=" + strconv.Itoa(port),
		"--endpoint-reconciler-type=none",
		"--service-cluster-ip-range=10.0.0.0/24",
		"--service-account-issuer=https://kubernetes.default.svc.cluster.local",
		"--service-account-key-file=" + filepath.Join(dir, "sa.key"),
		"--service-account-signing-key-file=" + filepath.Join(dir, "sa.key"),
		"--token-auth-file=" + filepath.Join(dir, "tokens.csv"),
		"--kubelet-client-certificate=" + filepath.Join(dir, kubeletClientCertFile),
		"--kubelet-client-key=" + filepath.Join(dir, kubeletClientKeyFile),
		// A node's name (NodeName) resolves nowhere; its address does.
		"--kubelet-preferred-address-types=InternalIP",
		"--authorization-mode=RBAC",
		admission,
		"--profiling=false",
		// Watches end at shutdown instead of holding it until they time out.
		"--shutdown-watch-termination-grace-period=2s",
	}
}

func etcdServer(dir string) server { return server{name: "etcd", dir: dir} }
func apiServer(dir string) server  { return server{name: "kube-apiserver", dir: dir} }

// Stop stops the node (when StartWithNode made one), the apiserver and then
// etcd recorded in dir. It succeeds when nothing of the cluster is left
// running, including when nothing ran.
func Stop(dir string) error {
	errNode := stopNode(dir)
	errAPI := apiServer(dir).stop(15 * time.Second)
	errEtcd := etcdServer(dir).stop(10 * time.Second)
	return errors.Join(errNode, errAPI, errEtcd)
}

var errPortTaken = errors.New("port already in use")

// reaped waits for the child in the background (so it never lingers as a
// zombie) and reports its exit on the returned channel.
func reaped(cmd *exec.Cmd) <-chan error {
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	return done
}

// waitUntil polls check until it succeeds, the server exits, or time runs out.
func waitUntil(ctx context.Context, s server, exited <-chan error, check func() error) error {
	deadline := time.NewTimer(readyTimeout)
	defer deadline.Stop()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case err := <-exited:
			logTail := s.logTail(30)
			if strings.Contains(logTail, "address already in use") {
				return fmt.Errorf("%s: %w\n%s", s.name, errPortTaken, logTail)
			}
			return fmt.Errorf("%s exited during start-up (%v); last lines of %s:\n%s", s.name, err, s.logFile(), logTail)
		case <-deadline.C:
			return fmt.Errorf("%s not ready after %s (last check: %v); last lines of %s:\n%s", s.name, readyTimeout, check(), s.logFile(), s.logTail(30))
		case <-ctx.Done():
			return fmt.Errorf("%s start-up: %w", s.name, ctx.Err())
		case <-tick.C:
			if check() == nil {
				return nil
			}
		}
	}
}
