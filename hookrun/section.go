package hookrun

import (
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/values"
)

// CheckSection answers a CheckConfig: whether ApplySection would take the
// section into scope, taking nothing.
func CheckSection(scope values.Scope, owner string, check messages.CheckConfig) messages.ConfigChecked {
	_, reply := ApplySection(scope, owner, check.Section)
	return messages.ConfigChecked{Owner: owner, Round: check.Round, Err: reply.Err}
}

// ApplySection takes an owner's ConfigMap section as the config layer of
// scope. It returns the next scope and the owner's answer: Changed when the
// values differ, or Err (the section failed validation) with scope as it
// was. The echo of the owner's own config patch write equals the config
// layer already, so it changes nothing.
func ApplySection(scope values.Scope, owner string, section any) (values.Scope, messages.ConfigApplied) {
	reply := messages.ConfigApplied{Owner: owner}
	next, err := scope.WithConfig(section)
	if err != nil {
		reply.Err = err.Error()
		return scope, reply
	}
	reply.Changed = next.Checksum() != scope.Checksum()
	return next, reply
}
