package step_test

import (
	"log/slog"
	"os"

	"github.com/addon-actors/addon-operator/actors/step"
)

// A core returns a Log effect; its shell writes it.
func Example() {
	log := slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		}}))
	step.At(slog.LevelWarn, "module run failed", "module", "demo").Write(log)
	step.Log{Level: slog.LevelDebug, Msg: "not shown"}.Write(log)
	// Output:
	// level=WARN msg="module run failed" module=demo
}
