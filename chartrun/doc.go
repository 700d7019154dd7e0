// Package chartrun runs a module's Helm chart through the helm.sh/helm/v3
// library, with no actors inside. It is the helm phase of a module run
// (spec/LIFECYCLE-STEPS.md step 5, spec/MODULES.md).
//
// A Releaser works in one namespace with the operator's own rest config
// (its credentials, QPS and burst; never a kubeconfig of helm's own):
//
//   - Upgrade installs or upgrades a module's release (release name = module
//     name) unless it is up to date: the chart is rendered, the checksum of
//     the rendered manifests plus the values is compared with the one on the
//     deployed revision's labels, and the deployed objects are checked to
//     exist. A release left failed or pending-install with no deployed
//     revision is uninstalled first; one left pending-upgrade or
//     pending-rollback by a killed operator is rolled back to its last
//     deployed revision, then upgraded, and the interrupted revision is
//     marked failed in helm's storage so that no revision stays pending
//     under the deployed one; one left uninstalling is marked failed,
//     then upgraded (stuck.go says which states are stuck, and what a run
//     does with each for plan). A clear is logged at WARN with the stuck
//     revision, status and since when, and returned in
//     Result.Destructive (as is an adoption) for the caller to count. A module dir with neither
//     Chart.yaml nor templates/ has no helm phase: Upgrade reports NoChart.
//   - With Request.Maintenance (maintenance mode, UPSTREAM.md §7), Upgrade
//     writes the release once more with every object labelled
//     maintenance.deckhouse.io/no-resource-reconciliation and the release
//     labelled "true" (a post-renderer; the checksum is of the labelled
//     manifests), then leaves it as it is while its latest revision says
//     "true", without rendering it. Every other revision is labelled
//     "false", so the first one out of maintenance upgrades (maintenance.go).
//   - With Request.Wait, Upgrade then waits until the release's workloads
//     are ready (package readiness: Deployments, StatefulSets, DaemonSets
//     rolled out and available, Jobs complete, PVCs bound, CRDs
//     established), also after a run that skipped helm, so that the retry
//     of a run whose wait timed out waits again. Each kind and namespace of
//     the release's tracked objects is listed and then watched from the
//     list's version by one goroutine (a field selector for a single object,
//     else helm's label); every change is judged, Request.Progress is told
//     the objects not ready (at most once a second), and all of them stop
//     when the wait ends. A Failed object (a failed Job) ends it at once; a
//     timeout fails it with each object not ready, its conditions and the
//     reasons of its pods (one list of pods per workload). Both wrap
//     ErrNotReady; the release stays as written.
//   - AbsentResources lists the objects of the deployed revision that are gone
//     (auto-healing). Check adds, when asked, the objects that differ from
//     what the manifest sets (drift, compared by package drift), and so does
//     an Upgrade that skips helm when its Request asks; Restore patches the
//     drifted fields back, and nothing else.
//   - Uninstall (and Delete) uninstalls a release and says which revision it
//     removed; one that is gone is not an error. The caller logs why. A
//     release left stuck (pending-*, uninstalling) is finished so, its
//     recovery logged and returned as a clear.
//   - List names the releases this operator installed, for the purge of
//     releases whose module is gone; Names also every release, and those
//     helm left stuck, from their Secrets' labels (the caller reports the
//     stuck ones that are no module's, and never touches them).
//   - Render returns the manifests for given values without installing.
//
// Every revision it writes carries the label heritage=addon-operator, and
// only releases with it are listed, so only those are purged when their
// module dir is gone; Options.IgnoreRelease is never listed, upgraded or
// deleted. A release named after a module that lacks the label (installed
// by the original addon-operator, an older version or plain helm) is still
// that module's release: Upgrade adopts it (never skips it, clears it when
// stuck as it would its own, upgrades it so its new revision carries the
// label) and logs the adoption at WARN once per release and process, with the
// revision and who installed it as far as its labels tell; Delete and
// AbsentResources treat it as the module's release too.
//
// Choices worth knowing:
//   - The checksum is of what the chart renders, so a change to a hook, a
//     comment in a template or an unused default does not upgrade, and a
//     template whose output changes on every render (randAlphaNum, now)
//     upgrades on every run, as in the original addon-operator. Templates are
//     rendered with fixed release options (revision 1), so .Release.Revision
//     does not count.
//   - The module's own files (hooks/, enabled) are not part of the chart:
//     helm would store them in every revision's Secret.
//   - The absent check makes one request per kind and namespace: a GET of
//     metadata for a single object, else a LIST of the metadata of the
//     objects helm labelled app.kubernetes.io/managed-by=Helm.
//   - Upgrade overlaps what does not depend on each other, as every module
//     run waits for it: the history is read while the chart renders, and the
//     rendered objects (helm's hooks left out, as in a release's manifest)
//     are checked while the history is read. The check counts only when the
//     latest revision is deployed with the rendered checksum, whose objects
//     are then the rendered ones; otherwise it is cancelled.
//   - After a restart, the first Upgrade lists the metadata of all helm
//     release Secrets once (helm keeps each revision's name, version, status
//     and labels on its Secret) and watches them: each release's first run
//     decides its skip from that list instead of reading its history. An
//     entry serves one run, only to skip (any other outcome is decided again
//     from the history read then), and is dropped when the watch sees its
//     release change or this releaser deletes it. Those first runs check
//     their objects' presence the same way: one list per kind and namespace
//     of the objects helm labelled, kept current by a watch, instead of one
//     list per run.
//   - The drift checks read whole objects from one list and watch per kind
//     and namespace of the objects helm labelled, kept for the process (the
//     live objectIndex; a watch that ends is listed again when next needed),
//     and confirm what they find with a GET of that object.
//   - The cluster's capabilities are discovered once and kept until this
//     releaser writes or removes a release that names a
//     CustomResourceDefinition or an APIService (the only kinds that change
//     what the cluster serves), fails a write, or Options.CapabilitiesTTL
//     passes; helm's actions get the same capabilities, so an upgrade
//     renders what was checksummed.
package chartrun
