// Package chartrun runs a module's Helm chart through the helm.sh/helm/v3
// library with no actors inside: upgrade-or-install skipped when nothing
// changed, delete, listing of the releases this operator owns, finding the
// absent resources of a deployed release, and clearing a stuck first release.
package chartrun
