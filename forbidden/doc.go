// Package forbidden reads the apiserver's refusals (403 Forbidden) out of
// errors, for the operator to say what its RBAC lacks: the verb, the
// resource (group/resource), the namespace, and the rule to add. client-go
// returns a StatusError; helm wraps the same message in text, so both are
// read from the message with one pure function (Parse).
package forbidden
