#!/usr/bin/env bash
# Runs the operator in the foreground against the example modules, on the
# cluster that `testcluster exec` started (TESTCLUSTER_KUBECONFIG). Ctrl-C
# stops the operator; testcluster then stops the cluster.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
kc=${TESTCLUSTER_KUBECONFIG:?run me through test/cluster/testcluster exec}
bin=${ADDON_OPERATOR_BIN:-$here/../bin/addon-operator}
port=${ADDON_OPERATOR_LISTEN_PORT:-9115}
socket=${DEBUG_UNIX_SOCKET:-$here/../.cache/debug.socket}

(cd "$here/.." && go run ./examples/prepare "$kc" "$here/configmap.yaml")
cat <<MSG
addon-operator is starting with the modules in examples/modules.
  queue:    curl localhost:$port/queue
  ready:    curl localhost:$port/readyz
  metrics:  curl localhost:$port/metrics
  releases: kubectl --kubeconfig $kc -n addon-operator get secrets -l owner=helm
  objects:  kubectl --kubeconfig $kc -n addon-operator get configmaps
  config:   kubectl --kubeconfig $kc -n addon-operator edit configmap addon-operator
  debug:    DEBUG_UNIX_SOCKET=$socket bin/addon-operator module list   (also: queue list, actors, module values NAME)
Ctrl-C stops the operator and the cluster.
MSG
export MODULES_DIR="$here/modules" GLOBAL_HOOKS_DIR="$here/global-hooks" ADDON_OPERATOR_NAMESPACE=addon-operator
export KUBE_CONFIG="$kc" LOG_TYPE=${LOG_TYPE:-text} ADDON_OPERATOR_LISTEN_PORT=$port DEBUG_UNIX_SOCKET=$socket
export ADDON_OPERATOR_TMP_DIR=${ADDON_OPERATOR_TMP_DIR:-$here/../.cache/hooks-tmp}
exec "$bin" start
