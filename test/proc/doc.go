// Package proc waits for processes to exit, for tests and the test
// cluster: on a pidfd, so that the process need not be a child of the
// caller (a hook's grandchild, a server started by another command). It
// also reads what a process costs from /proc (CPU time, resident set and
// its peak), for the bench programs.
package proc
