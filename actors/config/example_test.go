package config_test

import (
	"context"
	"fmt"
	"time"

	"github.com/addon-actors/addon-operator/actors/config"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/test/actortest"
)

// chanSource reports the ConfigMap versions sent to it (a Store reports
// them from the apiserver).
type chanSource chan config.Snapshot

func (s chanSource) Run(ctx context.Context, onChange func(config.Snapshot)) error {
	for {
		select {
		case snap := <-s:
			onChange(snap)
		case <-ctx.Done():
			return nil
		}
	}
}

// The config actor reports the configuration to the operator and hands a
// module its section, answered to the operator the first time; a later
// edit of the module's section is first checked with the module (a change
// is applied whole or not at all), then goes to the module alone (the
// operator is told what changed, and leaves module sections to the
// modules).
func Example() {
	t := &actortest.Standalone{}
	defer t.Close()
	kit := actortest.New(t)
	operator, module := kit.NewProbe(), kit.NewProbe()
	source := make(chanSource)
	pid := kit.Spawn("config", config.New(config.Options{Source: source, Report: operator.PID}))
	kit.Send(pid, messages.SectionReaders{FirstReport: operator.PID,
		Modules: map[string]messages.SectionReader{"fooBar": {Owner: "module/foo-bar", PID: module.PID}}})
	show := func() {
		changed := actortest.Expect[messages.ConfigChanged](operator, time.Second)
		fmt.Printf("operator: initial=%t global=%t modules=%v\n", changed.Initial, changed.Change.Global, changed.Change.Modules)
		r := module.Receive(time.Second)
		fmt.Printf("fooBar: %v, answer to the operator: %t\n", r.Message.(messages.ApplyConfig).Section, r.Sender.Equal(operator.PID))
	}
	source <- config.Snapshot{Exists: true, ResourceVersion: "1", Data: map[string]string{"global": "a: 1\n", "fooBar": "x: 1\n"}}
	show()
	source <- config.Snapshot{Exists: true, ResourceVersion: "2", Data: map[string]string{"global": "a: 1\n", "fooBar": "x: 2\n"}}
	// The module is asked first whether it would take the new section.
	r := module.Receive(time.Second)
	check := r.Message.(messages.CheckConfig)
	fmt.Printf("fooBar asked about %v\n", check.Section)
	kit.Send(r.Sender, messages.ConfigChecked{Owner: "module/foo-bar", Round: check.Round})
	show()
	// Output:
	// operator: initial=true global=true modules=[fooBar]
	// fooBar: map[x:1], answer to the operator: true
	// fooBar asked about map[x:2]
	// operator: initial=false global=false modules=[fooBar]
	// fooBar: map[x:2], answer to the operator: false
}
