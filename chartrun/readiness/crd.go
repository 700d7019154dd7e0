package readiness

// crd is ready when established. A CRD whose names clash with another's
// (NamesAccepted=False) is never established: it is Failed.
func crd(obj map[string]any) Status {
	conds := conditions(obj)
	if c, ok := find(conds, "NamesAccepted", "False"); ok {
		return Status{Failed: true, Progress: "names not accepted", Reason: c.String()}
	}
	if _, ok := find(conds, "Established", "True"); ok {
		return Status{Ready: true, Progress: "established"}
	}
	return Status{Progress: "waiting to be established", Reason: firstReason(conds, [2]string{"Established", "False"})}
}
