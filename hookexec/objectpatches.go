package hookexec

import (
	"fmt"

	"github.com/addon-actors/addon-operator/hookexec/objectpatch"
)

// readObjectPatches parses $KUBERNETES_PATCH_PATH; a file the hook removed
// is no operations.
func readObjectPatches(f outputFile) ([]objectpatch.Operation, error) {
	data, err := readOutput(f)
	if err != nil || data == nil {
		return nil, err
	}
	ops, err := objectpatch.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w: %w", EnvKubernetesPatchPath, ErrBadObjectPatch, err)
	}
	return ops, nil
}
