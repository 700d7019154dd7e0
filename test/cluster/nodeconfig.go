package cluster

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// nodeLayout are the node's paths under DIR/node.
type nodeLayout struct {
	Root            string // DIR/node
	ContainerdConf  string
	ContainerdSock  string
	KubeletConfig   string
	KubeletRoot     string
	PauseImageTar   string
	containerdState string
}

func layoutOf(dir string) nodeLayout {
	root := filepath.Join(dir, nodeDir)
	return nodeLayout{
		Root:            root,
		ContainerdConf:  filepath.Join(root, "containerd", "config.toml"),
		ContainerdSock:  filepath.Join(root, "containerd", "containerd.sock"),
		KubeletConfig:   filepath.Join(root, "kubelet.yaml"),
		KubeletRoot:     filepath.Join(root, "kubelet"),
		PauseImageTar:   filepath.Join(root, "pause.oci.tar"),
		containerdState: filepath.Join(root, "containerd", "state"),
	}
}

// writeNodeConfig writes containerd's config, the CNI network and the
// kubelet's config, each pointing only at dirs under DIR/node.
func writeNodeConfig(dir string, id nodeIdentity, nodeIP string, ports []int) (nodeLayout, error) {
	l := layoutOf(dir)
	files := map[string]string{
		l.ContainerdConf: containerdConfig(l),
		filepath.Join(l.Root, "cni", "net.d", "10-testcluster.conflist"): cniConfig(l, id),
		l.KubeletConfig: kubeletConfig(l, id, nodeIP, filepath.Join(dir, kubeletCAFile), ports),
	}
	if err := WriteTree("", files, 0o644); err != nil {
		return l, fmt.Errorf("node config: %w", err)
	}
	if err := os.MkdirAll(l.KubeletRoot, 0o755); err != nil {
		return l, fmt.Errorf("kubelet root: %w", err)
	}
	return l, nil
}

// containerdConfig: CRI with runc (crun refuses hybrid cgroups), the local
// pause image, no negative oom_score_adj (CAP_SYS_RESOURCE is missing), and
// every root, state, socket, netns and runc dir under DIR/node.
func containerdConfig(l nodeLayout) string {
	r := strings.NewReplacer("ROOT", filepath.Join(l.Root, "containerd"), "CNI", filepath.Join(l.Root, "cni"), "PAUSE", PauseImage)
	return r.Replace(`version = 2
root = "ROOT/root"
state = "ROOT/state"
disabled_plugins = ["io.containerd.snapshotter.v1.aufs", "io.containerd.snapshotter.v1.btrfs", "io.containerd.snapshotter.v1.zfs", "io.containerd.snapshotter.v1.devmapper"]

[grpc]
  address = "ROOT/containerd.sock"

[ttrpc]
  address = "ROOT/containerd.sock.ttrpc"

[plugins."io.containerd.internal.v1.opt"]
  path = "ROOT/opt"

[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "PAUSE"
  restrict_oom_score_adj = true
  netns_mounts_under_state_dir = true
  stream_server_address = "127.0.0.1"
  stream_server_port = "0"
  enable_selinux = false
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        BinaryName = "runc"
        Root = "ROOT/runc"
        SystemdCgroup = false
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "CNI/net.d"
`)
}

// cniConfig is a bridge of the node's own name and subnet, without masquerade
// (pods talk to each other and the host, which is all tests need, and no
// iptables rule is left behind).
func cniConfig(l nodeLayout, id nodeIdentity) string {
	return fmt.Sprintf(`{
  "cniVersion": "0.4.0",
  "name": %q,
  "plugins": [
    {
      "type": "bridge",
      "bridge": %q,
      "isGateway": true,
      "ipMasq": false,
      "ipam": {
        "type": "host-local",
        "dataDir": %q,
        "ranges": [[{"subnet": %q}]],
        "routes": [{"dst": "0.0.0.0/0"}]
      }
    }
  ]
}
`, id.Network, id.Bridge, filepath.Join(l.Root, "cni", "ipam"), id.Subnet)
}

// kubeletConfig: cgroup v1 allowed and driven through cgroupfs under the
// node's own cgroup root; its API on the node IP (the apiserver reaches a
// node by its address, and a kubelet refuses a loopback one) for clients
// with a certificate of the cluster's kubelet CA, which only the apiserver
// has; health on loopback; no static pods; eviction and image GC
// thresholds that a busy shared disk never reaches.
func kubeletConfig(l nodeLayout, id nodeIdentity, nodeIP, clientCA string, ports []int) string {
	return fmt.Sprintf(`apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
failCgroupV1: false
cgroupDriver: cgroupfs
cgroupRoot: %s
containerRuntimeEndpoint: unix://%s
address: %s
port: %d
healthzBindAddress: 127.0.0.1
healthzPort: %d
readOnlyPort: 0
podLogsDir: %s
authentication:
  anonymous:
    enabled: false
  webhook:
    enabled: false
  x509:
    clientCAFile: %s
authorization:
  mode: AlwaysAllow
failSwapOn: false
resolvConf: ""
evictionHard:
  memory.available: "1Mi"
  nodefs.available: "1%%"
  nodefs.inodesFree: "1%%"
  imagefs.available: "1%%"
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
`, id.CgroupRoot, l.ContainerdSock, nodeIP, ports[0], ports[1], filepath.Join(l.Root, "pod-logs"), clientCA)
}
