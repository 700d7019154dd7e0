// Command etcd runs a single-member etcd server for the test cluster.
//
// It takes only the flags the test cluster needs: a data directory and the
// client and peer URLs on loopback. It exits when it receives SIGTERM or SIGINT.
package main

import (
	"flag"
	"fmt"
	"net/url"
	"os"
	"os/signal"
	"syscall"
	"time"

	"go.etcd.io/etcd/server/v3/embed"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "etcd:", err)
		os.Exit(1)
	}
}

func run() error {
	dataDir := flag.String("data-dir", "", "data directory")
	clientURL := flag.String("listen-client-url", "http://127.0.0.1:2379", "client URL")
	peerURL := flag.String("listen-peer-url", "http://127.0.0.1:2380", "peer URL")
	flag.Parse()
	if *dataDir == "" {
		return fmt.Errorf("--data-dir is required")
	}
	cfg, err := config(*dataDir, *clientURL, *peerURL)
	if err != nil {
		return err
	}
	srv, err := embed.StartEtcd(cfg)
	if err != nil {
		return fmt.Errorf("start: %w", err)
	}
	defer srv.Close()
	select {
	case <-srv.Server.ReadyNotify():
	case <-time.After(60 * time.Second):
		return fmt.Errorf("not ready after 60s")
	}
	fmt.Println("etcd ready on", *clientURL)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	select {
	case <-sig:
		return nil
	case err := <-srv.Err():
		return fmt.Errorf("serve: %w", err)
	}
}

func config(dataDir, clientURL, peerURL string) (*embed.Config, error) {
	client, err := url.Parse(clientURL)
	if err != nil {
		return nil, fmt.Errorf("parse client URL %q: %w", clientURL, err)
	}
	peer, err := url.Parse(peerURL)
	if err != nil {
		return nil, fmt.Errorf("parse peer URL %q: %w", peerURL, err)
	}
	cfg := embed.NewConfig()
	cfg.Name = "testcluster"
	cfg.Dir = dataDir
	cfg.ListenClientUrls = []url.URL{*client}
	cfg.AdvertiseClientUrls = []url.URL{*client}
	cfg.ListenPeerUrls = []url.URL{*peer}
	cfg.AdvertisePeerUrls = []url.URL{*peer}
	cfg.InitialCluster = cfg.Name + "=" + peer.String()
	cfg.LogLevel = "warn"
	cfg.UnsafeNoFsync = true
	return cfg, nil
}
