package config_test

import (
	"context"
	"errors"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/addon-actors/addon-operator/actors/config"
	"github.com/addon-actors/addon-operator/moduleconfig"
)

// secretState is one report of Secrets.Watch.
type secretState struct {
	data   map[string][]byte
	exists bool
}

func nextSecret(t *testing.T, got <-chan secretState) secretState {
	t.Helper()
	return receive(t, got, "Secret")
}

// TestSecretsWatch: the watch of one Secret by name on the real apiserver
// reports it absent at first, then created, changed and deleted; another
// Secret of the namespace is never reported. Reader gets the same values.
func TestSecretsWatch(t *testing.T) {
	ns := kube.Namespace(t)
	client := kubernetes.NewForConfigOrDie(kube.Config(t))
	secrets := config.Secrets{Client: client, Namespace: ns}
	ctx, cancel := context.WithCancel(context.Background())
	got := make(chan secretState, 16)
	done := make(chan error, 1)
	go func() {
		done <- secrets.Watch(ctx, "creds", func(d map[string][]byte, ok bool) { got <- secretState{d, ok} })
	}()
	if s := nextSecret(t, got); s.exists {
		t.Fatalf("a Secret not yet created reported as %v", s)
	}
	api, bg := client.CoreV1().Secrets(ns), context.Background()
	if _, err := api.Create(bg, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "other"}, StringData: map[string]string{"k": "x"}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	sec := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "creds"}, Data: map[string][]byte{"token": []byte("one")}}
	if _, err := api.Create(bg, sec, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if s := nextSecret(t, got); !s.exists || string(s.data["token"]) != "one" {
		t.Fatalf("created: %v", s)
	}
	if v, err := secrets.Reader(bg).SecretValue(moduleconfig.SecretKeyRef{Name: "creds", Key: "token"}); err != nil || v != "one" {
		t.Fatalf("Reader: %q, %v", v, err)
	}
	if _, err := secrets.Reader(bg).SecretValue(moduleconfig.SecretKeyRef{Name: "creds", Key: "nokey"}); !errors.Is(err, moduleconfig.ErrSecretMissing) {
		t.Fatalf("Reader of a missing key: %v", err)
	}
	sec.Data["token"] = []byte("two")
	if _, err := api.Update(bg, sec, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if s := nextSecret(t, got); string(s.data["token"]) != "two" {
		t.Fatalf("changed: %v", s)
	}
	if err := api.Delete(bg, "creds", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if s := nextSecret(t, got); s.exists {
		t.Fatalf("deleted: %v", s)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Watch after its context ended: %v", err)
	}
	select {
	case s := <-got:
		t.Fatalf("a report of another Secret, or one more: %v", s)
	default:
	}
}
