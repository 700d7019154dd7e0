// Package whatif answers `addon-operator plan`: what a converge would do
// with a candidate ConfigMap, without applying anything. It runs the
// operator's own discovery (operator.Core, discover.go) with its inputs
// swapped: the candidate sections instead of the live ones, the modules
// dirs as they are now, and what the operator published on the board for
// the rest; where the operator asks a module actor, it runs the module's
// enabled script itself (in run order, with the candidate values and the
// modules enabled before it). The core reads the dirs as the operator's
// rescans do, so a modules set whose requirements form a cycle is refused
// as the operator refuses it (an invalid plan naming the cycle), and it
// groups the runs by the operator's ParallelModuleRuns. It builds each
// scope's values as its actor takes a ConfigMap change
// (hookrun.ApplySection on the scope the actor holds, rebuilt from what it
// published: the same layering, OpenAPI defaults and validation), reads
// the operator's published state through board.Reader alone, takes the
// module runs, deletes and purges the core decides, and compares each
// release's deployed manifest with the chart rendered with the candidate
// values (chartrun/manifestdiff). Hooks other than enabled scripts are not
// run.
package whatif
