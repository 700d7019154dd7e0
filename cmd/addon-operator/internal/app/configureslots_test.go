package app

import "testing"

func TestConfigureSlotsAreTwicePerCoreUnlessSet(t *testing.T) {
	for _, c := range []struct{ setting, procs, want int }{
		{0, 1, 2}, {0, 2, 4}, {0, 8, 16}, {0, 0, 2}, {3, 2, 3}, {1, 16, 1},
	} {
		if got := configureSlots(c.setting, c.procs); got != c.want {
			t.Errorf("configureSlots(%d, %d) = %d, want %d", c.setting, c.procs, got, c.want)
		}
	}
}
