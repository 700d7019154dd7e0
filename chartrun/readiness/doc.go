// Package readiness says whether a Kubernetes object, as the apiserver
// returns it (JSON-decoded, the Object of an unstructured.Unstructured), is
// ready, and if not, why, in words a user reads in a log and in `module why`.
//
// It is the pure half of waiting for a module's release after a helm install
// or upgrade: the waiter (in chartrun) watches the release's objects and the
// pods of its workloads, and asks this package about each one it sees. This
// package does no I/O and holds no clients, so its rules are tested with
// status bodies alone.
//
//   - Of judges one object by its apiVersion and kind: Deployments,
//     StatefulSets and DaemonSets by their rollout and available pods, Jobs by
//     completion, PersistentVolumeClaims by being bound, CustomResourceDefinitions
//     by being established. Other kinds are not tracked and count as ready.
//   - Tracked tells the waiter which objects are worth watching.
//   - Selector gives the label selector of a workload's pods, and PodReasons
//     turns those pods into the lines of a timeout error (image pull
//     back-offs, crash loops, OOM kills, unschedulable pods).
//
// Choices worth knowing:
//
//   - A workload is only judged once its controller has observed its current
//     generation: before that its status describes the previous spec.
//   - A paused Deployment is ready once observed: the pause is the user's
//     choice, and waiting for it would only time out.
//   - Status.Failed marks objects that will not become ready by waiting (a
//     failed Job, a lost claim, a CRD whose names clash), so the waiter can
//     stop early. A Deployment past its progress deadline is not Failed: its
//     controller keeps trying and a fixed image or quota still lets it finish;
//     the deadline is given as the Reason.
//   - A PersistentVolumeClaim whose StorageClass binds on first consumer stays
//     pending until a pod uses it; the waiter sees it ready once that pod is
//     scheduled.
package readiness
