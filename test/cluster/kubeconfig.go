package cluster

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// writeKubeconfig writes a kubeconfig for the admin token, trusting the
// certificate the apiserver generated in its cert dir. Until the apiserver
// has written that certificate it returns an error, which the readiness
// loop treats as "not ready yet".
func writeKubeconfig(path, host, token, caFile string) error {
	ca, err := os.ReadFile(caFile)
	if err != nil {
		return fmt.Errorf("apiserver certificate: %w", err)
	}
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters["testcluster"] = &clientcmdapi.Cluster{Server: host, CertificateAuthorityData: ca}
	cfg.AuthInfos["admin"] = &clientcmdapi.AuthInfo{Token: token}
	cfg.Contexts["testcluster"] = &clientcmdapi.Context{Cluster: "testcluster", AuthInfo: "admin", Namespace: "default"}
	cfg.CurrentContext = "testcluster"
	if err := clientcmd.WriteToFile(*cfg, path); err != nil {
		return fmt.Errorf("write kubeconfig: %w", err)
	}
	return nil
}

// RestConfig loads the kubeconfig that Start wrote.
func RestConfig(kubeconfig string) (*rest.Config, error) {
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return nil, fmt.Errorf("load kubeconfig %s: %w", kubeconfig, err)
	}
	cfg.QPS, cfg.Burst = 200, 400
	return cfg, nil
}

// Clientset is a client of the kubeconfig that Start wrote.
func Clientset(kubeconfig string) (*kubernetes.Clientset, error) {
	cfg, err := RestConfig(kubeconfig)
	if err != nil {
		return nil, err
	}
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("client for %s: %w", cfg.Host, err)
	}
	return client, nil
}

// checkReady asks the apiserver's /readyz with the kubeconfig's credentials.
func checkReady(ctx context.Context, kubeconfig string) error {
	cfg, err := RestConfig(kubeconfig)
	if err != nil {
		return err
	}
	client, err := rest.HTTPClientFor(cfg)
	if err != nil {
		return fmt.Errorf("client for %s: %w", cfg.Host, err)
	}
	return httpGetOK(ctx, client, cfg.Host+"/readyz")
}

func httpOK(ctx context.Context, url string) error {
	return httpGetOK(ctx, &http.Client{}, url)
}

func httpGetOK(ctx context.Context, client *http.Client, url string) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s: %s", url, resp.Status, body)
	}
	return nil
}
