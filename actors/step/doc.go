// Package step holds what every pure core of the actor tree shares: the
// Log effect's shape and the one way it is written.
//
// A core (actors/module, actors/global, actors/operator, actors/queue)
// decides in a pure Step and returns effects from a closed set; a record
// for the log is one of them. Each package declares its own Log as a
// defined type of step.Log (so that it joins the package's sealed set) and
// its applier writes it with Write:
//
//	type Log step.Log
//	func (Log) moduleEffect() {}
//	...
//	case Log:
//		step.Log(e).Write(a.log)
package step
