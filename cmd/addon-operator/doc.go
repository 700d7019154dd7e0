// Command addon-operator runs the operator (`addon-operator start`) and, with
// its other sub-commands, is the debug CLI that talks to a running operator
// over its unix socket.
package main
