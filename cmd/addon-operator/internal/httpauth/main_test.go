package httpauth_test

import (
	"testing"

	"github.com/addon-actors/addon-operator/test/cluster"
)

var kube *cluster.Harness

func TestMain(m *testing.M) { cluster.Main(m, &kube) }
