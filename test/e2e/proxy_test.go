package e2e_test

import (
	"io"
	"net"
	"net/url"
	"path/filepath"
	"sync"
	"testing"

	"k8s.io/client-go/tools/clientcmd"
)

// cutProxy forwards TCP to the apiserver until it is cut: then every
// connection is closed and new ones are refused, as when a node loses
// its network.
type cutProxy struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	conns  []net.Conn
	isCut  bool
}

func startProxy(t *testing.T, target string) *cutProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &cutProxy{ln: ln, target: target}
	go p.accept()
	t.Cleanup(p.cut)
	return p
}

func (p *cutProxy) accept() {
	for {
		in, err := p.ln.Accept()
		if err != nil {
			return
		}
		out, err := net.Dial("tcp", p.target)
		if err != nil || !p.track(in, out) {
			in.Close()
			if out != nil {
				out.Close()
			}
			continue
		}
		go pipe(in, out)
		go pipe(out, in)
	}
}

// track remembers a connection pair, unless the proxy is cut.
func (p *cutProxy) track(conns ...net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.isCut {
		return false
	}
	p.conns = append(p.conns, conns...)
	return true
}

func pipe(dst, src net.Conn) {
	_, _ = io.Copy(dst, src)
	dst.Close()
	src.Close()
}

// cut closes the listener and every connection.
func (p *cutProxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.isCut = true
	p.ln.Close()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

// kubeconfig writes a copy of the test cluster's kubeconfig that reaches
// the apiserver through the proxy.
func (p *cutProxy) kubeconfig(t *testing.T) string {
	t.Helper()
	cfg, err := clientcmd.LoadFromFile(kube.Kubeconfig())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cfg.Clusters {
		c.Server = "https://" + p.ln.Addr().String()
	}
	path := filepath.Join(t.TempDir(), "kubeconfig")
	if err := clientcmd.WriteToFile(*cfg, path); err != nil {
		t.Fatal(err)
	}
	return path
}

// apiserverAddr is the test cluster's host:port.
func apiserverAddr(t *testing.T) string {
	t.Helper()
	u, err := url.Parse(kube.Config(t).Host)
	if err != nil {
		t.Fatal(err)
	}
	return u.Host
}
