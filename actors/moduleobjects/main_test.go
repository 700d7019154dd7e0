package moduleobjects_test

import (
	"testing"

	"github.com/addon-actors/addon-operator/test/cluster"
)

var testKube *cluster.Harness

func TestMain(m *testing.M) { cluster.Main(m, &testKube) }
