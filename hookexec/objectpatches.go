package hookexec

import (
	"errors"
	"fmt"
	"os"

	"github.com/addon-actors/addon-operator/hookexec/objectpatch"
)

// readObjectPatches parses $KUBERNETES_PATCH_PATH; a file the hook removed
// is no operations.
func readObjectPatches(path string) ([]objectpatch.Operation, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", EnvKubernetesPatchPath, err)
	}
	ops, err := objectpatch.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w: %w", EnvKubernetesPatchPath, ErrBadObjectPatch, err)
	}
	return ops, nil
}
