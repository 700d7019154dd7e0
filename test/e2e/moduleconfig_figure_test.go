package e2e_test

import (
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/test/scenario"
	"github.com/addon-actors/addon-operator/values"
)

// TestModuleConfigLatencyFigure measures how fast a settings change
// reaches the module's run through a ModuleConfig and through the
// ConfigMap: two modules of one operator, one configured by each, changed
// in turn 20 times each; the time is from just before the write to the
// start of the module's beforeHelm hook, as the hook's first command
// reads the clock. It prints the medians and the load average, and fails
// only when a change does not reach its module.
func TestModuleConfigLatencyFigure(t *testing.T) {
	ns := kube.Namespace(t)
	byCM, _, _ := mcModule(t, ns+"-cm")
	byMC, _, _ := mcModule(t, ns+"-mc")
	files := map[string]string{}
	for _, name := range []string{byCM, byMC} {
		names, _ := values.NamesOf(name)
		files["modules/001-"+name+"/Chart.yaml"] = "apiVersion: v2\nname: " + name + "\nversion: 0.1.0\n"
		files["modules/001-"+name+"/templates/cm.yaml"] = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\ndata:\n  text: {{ .Values." + names.ValuesKey + ".text | quote }}\n"
		files["modules/001-"+name+"/hooks/before"] = hook(`{"configVersion":"v1","beforeHelm":1}`,
			`echo "$(date +%s%N) $(jq -r .`+names.ValuesKey+`.text $VALUES_PATH)" >> "$RECORD_DIR/`+name+`"`)
	}
	root := tree(t, files)
	if err := os.MkdirAll(root+"/record", 0o755); err != nil {
		t.Fatal(err)
	}
	cmNames, _ := values.NamesOf(byCM)
	putCM := func(text string) {
		scenario.PutConfigMap(t, kube, ns, map[string]string{cmNames.ValuesKey: "text: " + text + "\n", cmNames.EnabledKey: "true"})
	}
	res := mcClient(t, byMC)
	putCM("start")
	op := startSpec(t, root, ns)
	op.waitReady(t)
	// The operator creates the CRD when it is missing.
	putMC(t, res, byMC, "  enabled: true\n  settings:\n    text: start\n")
	op.waitUntil(t, byMC+" enabled by its ModuleConfig", func() bool {
		data, _ := os.ReadFile(root + "/record/" + byMC)
		return strings.HasSuffix(string(data), " start\n")
	})
	var viaCM, viaMC []time.Duration
	for i := range 40 {
		text, name := "v"+strconv.Itoa(i), byCM
		t0 := time.Now()
		if i%2 == 0 {
			putCM(text)
		} else {
			name = byMC
			putMC(t, res, byMC, "  enabled: true\n  settings:\n    text: "+text+"\n")
		}
		var started time.Time
		op.waitUntil(t, name+" run with "+text, func() bool {
			stamp, seen, _ := strings.Cut(lastLine(record(t, root, name)), " ")
			ns, _ := strconv.ParseInt(stamp, 10, 64)
			started = time.Unix(0, ns)
			return seen == text
		})
		if i%2 == 0 {
			viaCM = append(viaCM, started.Sub(t0))
		} else {
			viaMC = append(viaMC, started.Sub(t0))
		}
	}
	load, _ := os.ReadFile("/proc/loadavg")
	t.Logf("settings change to the module's hook start, median of 20 each, alternated: ConfigMap %v, ModuleConfig %v (load average %s)",
		median(viaCM), median(viaMC), strings.Join(strings.Fields(string(load))[:3], " "))
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}
