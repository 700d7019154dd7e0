package cluster

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// What the node sets up on the host outside the cluster dir, and takes down
// again: its cgroup root (the kubelet refuses a cgroupRoot that does not
// exist), containerd, the shims and containers it starts, mounts, a bridge.

const cgroupV1 = "/sys/fs/cgroup"

// cgroupHierarchies are the mounted hierarchies: the v1 ones, and with
// unified set the hybrid layout's unified one, where runc mirrors the
// containers' cgroups.
func cgroupHierarchies(unified bool) ([]string, error) {
	entries, err := os.ReadDir(cgroupV1)
	if err != nil {
		return nil, fmt.Errorf("cgroups: %w", err)
	}
	var dirs []string
	for _, e := range entries {
		if e.IsDir() && (unified || e.Name() != "unified") {
			dirs = append(dirs, filepath.Join(cgroupV1, e.Name()))
		}
	}
	return dirs, nil
}

// createCgroupRoot creates root in every hierarchy; cpuset needs its cpus
// and mems copied from the parent before a process may join.
func createCgroupRoot(root string) error {
	hierarchies, err := cgroupHierarchies(false)
	if err != nil {
		return err
	}
	for _, h := range hierarchies {
		dir := filepath.Join(h, root)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("create cgroup %s: %w", dir, err)
		}
		if filepath.Base(h) != "cpuset" {
			continue
		}
		for _, f := range []string{"cpuset.cpus", "cpuset.mems"} {
			parent, err := os.ReadFile(filepath.Join(h, f))
			if err != nil {
				return fmt.Errorf("cgroup %s: %w", f, err)
			}
			if err := os.WriteFile(filepath.Join(dir, f), parent, 0o644); err != nil {
				return fmt.Errorf("cgroup %s: %w", f, err)
			}
		}
	}
	return nil
}

// killCgroup kills every process in root's tree (the pods' containers and
// sandboxes) and waits until the tree is empty.
func killCgroup(root string) error {
	dir := filepath.Join(cgroupV1, "pids", root)
	deadline := time.Now().Add(10 * time.Second)
	for {
		pids := cgroupProcs(dir)
		if len(pids) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("processes %v still in cgroup %s", pids, dir)
		}
		for _, pid := range pids {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func cgroupProcs(dir string) []int {
	var pids []int
	_ = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() != "cgroup.procs" {
			return nil
		}
		data, _ := os.ReadFile(path)
		for _, f := range strings.Fields(string(data)) {
			if pid, err := strconv.Atoi(f); err == nil {
				pids = append(pids, pid)
			}
		}
		return nil
	})
	return pids
}

// removeCgroup removes root's tree in every hierarchy, deepest first.
func removeCgroup(root string) error {
	hierarchies, err := cgroupHierarchies(true)
	if err != nil {
		return err
	}
	var errs []error
	for _, h := range hierarchies {
		var dirs []string
		_ = filepath.WalkDir(filepath.Join(h, root), func(path string, d os.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				dirs = append(dirs, path)
			}
			return nil
		})
		for i := len(dirs) - 1; i >= 0; i-- {
			if err := syscall.Rmdir(dirs[i]); err != nil && !errors.Is(err, syscall.ENOENT) {
				errs = append(errs, fmt.Errorf("remove cgroup %s: %w", dirs[i], err))
			}
		}
	}
	return errors.Join(errs...)
}

// startContainerd starts containerd on its own config and waits until its
// socket answers `ctr version`.
func startContainerd(ctx context.Context, dir string, l nodeLayout, dieWithParent bool) error {
	s := containerdServer(dir)
	cmd, err := s.start("containerd", []string{"--config", l.ContainerdConf}, dieWithParent)
	if err != nil {
		return err
	}
	return waitUntil(ctx, s, reaped(cmd), func() error {
		return exec.CommandContext(ctx, "ctr", "--address", l.ContainerdSock, "version").Run()
	})
}

// killShims kills the containerd-shim-runc-v2 processes that serve the
// containerd whose socket is under root: they outlive containerd by design.
func killShims(root string) error {
	procs, err := os.ReadDir("/proc")
	if err != nil {
		return fmt.Errorf("list processes: %w", err)
	}
	var errs []error
	for _, p := range procs {
		pid, err := strconv.Atoi(p.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		if err != nil || !bytes.HasPrefix(cmdline, []byte("/usr/bin/containerd-shim")) || !bytes.Contains(cmdline, []byte(root+"/")) {
			continue
		}
		_ = syscall.Kill(pid, syscall.SIGKILL)
		if !waitGone(pid, filepath.Base(string(bytes.SplitN(cmdline, []byte{0}, 2)[0])), 5*time.Second) {
			errs = append(errs, fmt.Errorf("shim (pid %d) still running after SIGKILL", pid))
		}
	}
	return errors.Join(errs...)
}

// unmountUnder detaches every mount below root (containers' root
// filesystems, pods' network namespaces and shm), deepest first, so that
// the dir can be removed.
func unmountUnder(root string) error {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return fmt.Errorf("mounts: %w", err)
	}
	defer f.Close()
	var points []string
	scan := bufio.NewScanner(f)
	for scan.Scan() {
		fields := strings.Fields(scan.Text())
		if len(fields) > 4 && strings.HasPrefix(fields[4], root+"/") {
			points = append(points, fields[4])
		}
	}
	sort.Sort(sort.Reverse(sort.StringSlice(points)))
	var errs []error
	for _, p := range points {
		if err := unix.Unmount(p, unix.MNT_DETACH); err != nil && !errors.Is(err, unix.EINVAL) && !errors.Is(err, unix.ENOENT) {
			errs = append(errs, fmt.Errorf("unmount %s: %w", p, err))
		}
	}
	return errors.Join(errs...)
}

// removeBridge deletes the node's bridge, which the CNI plugin created.
func removeBridge(name string) error {
	if _, err := os.Stat("/sys/class/net/" + name); err != nil {
		return nil
	}
	if out, err := exec.Command("ip", "link", "delete", name).CombinedOutput(); err != nil {
		return fmt.Errorf("delete bridge %s: %w: %s", name, err, out)
	}
	return nil
}

// hostIP is the address the host sends from on its default route: the node's
// address (a kubelet refuses a loopback one). Dialing UDP sends nothing.
func hostIP() (string, error) {
	conn, err := net.Dial("udp4", "192.0.2.1:9")
	if err != nil {
		return "", fmt.Errorf("node address: the host has no default IPv4 route: %w", err)
	}
	defer conn.Close()
	return conn.LocalAddr().(*net.UDPAddr).IP.String(), nil
}

// removeHostFiles removes what the kubelet and the CNI plugins wrote for the
// node's containers outside dir: the log links in /var/log/containers that
// point into dir, and the cached CNI results of its network and sandboxes.
func removeHostFiles(l nodeLayout, id nodeIdentity) error {
	var errs []error
	links, _ := filepath.Glob("/var/log/containers/*.log")
	for _, link := range links {
		if target, err := os.Readlink(link); err == nil && strings.HasPrefix(target, l.Root+"/") {
			errs = append(errs, os.Remove(link))
		}
	}
	results, _ := filepath.Glob("/var/lib/cni/results/" + id.Network + "-*")
	tasks, _ := filepath.Glob(filepath.Join(l.containerdState, "io.containerd.runtime.v2.task", "*", "*"))
	for _, task := range tasks {
		loopback, _ := filepath.Glob("/var/lib/cni/results/cni-loopback-" + filepath.Base(task) + "-*")
		results = append(results, loopback...)
	}
	for _, r := range results {
		errs = append(errs, os.Remove(r))
	}
	return errors.Join(errs...)
}
