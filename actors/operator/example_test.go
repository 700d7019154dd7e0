package operator_test

import (
	"fmt"
	"strings"
	"time"

	"github.com/addon-actors/addon-operator/actors/operator"
	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/test/actortest"
	"github.com/addon-actors/addon-operator/values"
)

// The operator's start-up: it tells the config actor who reads which
// section, hands the global actor its section once the configuration is
// read and the global hooks are configured, and queues the start-up tasks
// once every owner has applied its section. A probe plays the children.
func Example() {
	t := &actortest.Standalone{}
	defer t.Close()
	kit := newTreeKit(t)
	probe := kit.NewProbe()
	var children []operator.Child
	for _, name := range []string{operator.ChildConfig, operator.ChildGlobal, operator.ChildQueue} {
		children = append(children, operator.Child{Name: name, Props: kit.System.Props(name, forwarder(probe))})
	}
	root, err := kit.System.StartWith(children, operator.LifecycleOptions{Board: board.New(), Clock: kit.Clock})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%T\n", actortest.Expect[messages.SectionReaders](probe, time.Second))

	kit.Send(root, messages.ConfigChanged{Initial: true})
	kit.Send(root, messages.OwnerReady{Owner: messages.OwnerGlobal})
	fmt.Printf("%T\n", actortest.Expect[messages.ApplyConfig](probe, time.Second))

	kit.Root.RequestWithCustomSender(root, messages.ConfigApplied{Owner: messages.OwnerGlobal}, probe.PID)
	for _, task := range actortest.Expect[messages.Enqueue](probe, time.Second).Tasks {
		fmt.Println(strings.TrimSpace(string(task.Kind) + " " + task.Binding))
	}
	// Output:
	// messages.SectionReaders
	// messages.ApplyConfig
	// GlobalBindingRun onStartup
	// GlobalSynchronization
	// ReloadAllModules
}

// A discovery decided by the core alone: the test answers the effects that
// ask something (CheckEnabled, ListReleases) as the lifecycle and the
// module actors would, and reads the tasks the converge would queue.
func ExampleCore() {
	names, _ := values.ParseModuleDir("010-web")
	web := layout.Definition{Names: names, Own: values.Sections{Enabled: map[string]bool{names.ValuesKey: true}}}
	core := operator.NewCore(operator.CoreOptions{Modules: []layout.Definition{web}})
	discover := messages.Task{Kind: messages.TaskDiscover, Owner: messages.OwnerOperator}
	effects := core.Step(operator.TaskAssigned{Assigned: hookrun.Assigned{Task: discover}}, operator.Env{})
	for len(effects) > 0 {
		var answer operator.Event
		switch e := effects[0].(type) {
		case operator.CheckEnabled:
			fmt.Println("asked", e.Module)
			answer = operator.EnabledAnswered{Msg: messages.EnabledChecked{Module: e.Module, Enabled: true}}
		case operator.ListReleases:
			answer = operator.ReleasesListed{Owned: []string{"web", "gone"}, All: []string{"web", "gone"}}
		case operator.FinishTask:
			for _, t := range e.Done.Next {
				fmt.Println(strings.Join(strings.Fields(string(t.Kind)+" "+t.Module+" "+t.Binding), " "))
			}
		}
		effects = effects[1:]
		if answer != nil {
			effects = append(core.Step(answer, operator.Env{}), effects...)
		}
	}
	// Output:
	// asked web
	// ModuleRun web
	// ModulePurge gone
	// GlobalBindingRun afterAll
	// ConvergeDone
}
