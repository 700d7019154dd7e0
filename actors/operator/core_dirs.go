package operator

import "maps"

// judgeDirs decides what the looks at the known modules' dirs mean, and
// adds them to what scan already says: gone is only a dir whose entry is
// missing in a modules dir that is there; a module is unseen (kept, its
// release too, reported) when the modules dir holding it cannot be seen
// (an unmounted volume removes none of its modules, whose releases would
// be purged), or its dir is there but cannot be looked at (a symlink whose
// target is missing or unreadable).
func judgeDirs(scan ModulesScanned) ModulesScanned {
	gone := append([]string{}, scan.Gone...)
	unseen := maps.Clone(scan.Unseen)
	if unseen == nil {
		unseen = map[string]string{}
	}
	for _, l := range scan.Looked {
		switch {
		case l.ParentErr != "":
			unseen[l.Module] = "modules dir cannot be seen, kept with its release until it can: " + l.ParentErr
		case l.Err == "":
		case l.NoEntry:
			gone = append(gone, l.Module)
		default:
			unseen[l.Module] = "dir cannot be seen, kept with its release until it can: " + l.Err
		}
	}
	scan.Gone, scan.Unseen, scan.Looked = gone, unseen, nil
	return scan
}
