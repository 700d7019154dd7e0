package app

// configureSlots is how many modules run their hooks' --config at once:
// the setting, or twice procs (GOMAXPROCS). A --config run is mostly its
// process's CPU, but each slot also waits with no CPU of its own in use
// (fork and exec, the exit's wake-up, reading the output, the module
// taking the result); with one slot per core those waits leave cores idle,
// and a second run per core fills them. Bounded so: at most twice as many
// hook processes as cores at once.
func configureSlots(setting, procs int) int {
	if setting > 0 {
		return setting
	}
	return 2 * max(procs, 1)
}
