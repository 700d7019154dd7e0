package main

import "fmt"

// requiredRoot is the module that module i requires under -requires roots:
// the first roots modules are the roots and require nothing (-1), every
// other module requires one of them, round-robin.
func requiredRoot(i, roots int) int {
	if roots <= 0 || i < roots {
		return -1
	}
	return i % roots
}

// moduleYAML is the module.yaml of a module that requires module m<root>;
// "" (no file) when root is -1. Any version of the root will do: the
// requirement orders the runs, it never disables.
func moduleYAML(root int) string {
	if root < 0 {
		return ""
	}
	return fmt.Sprintf("requirements:\n  modules:\n    m%d: \">= 0.0.0\"\n", root)
}

// requiresText describes the fixture's requirements.
func requiresText(n, roots int) string {
	roots = min(roots, n)
	if roots <= 0 {
		return "none (no module.yaml)"
	}
	return fmt.Sprintf("%d roots without module.yaml; the other %d modules each require one root (round-robin, \">= 0.0.0\") and run after it, whatever their weight",
		roots, n-roots)
}
