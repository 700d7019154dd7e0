package app

import (
	"errors"
	"fmt"
	"os"

	mcconversion "github.com/addon-actors/addon-operator/moduleconfig/conversion"
	"github.com/addon-actors/addon-operator/values"
	"github.com/addon-actors/addon-operator/values/schema"
)

// readGlobalOpenAPI reads the global values' schemas and settings
// conversions from the global hooks dir's openapi/, as a module's are read
// from its own dir (the same conversion.Load): a conversion chain with a
// gap, a version given twice or a bad jq program stops start-up, naming
// the file, the key and the line (the global values cannot be left out as
// a module is). No dir, or no openapi/ in it: no schemas, no conversions.
func readGlobalOpenAPI(dir string) (*schema.Set, mcconversion.Chain, error) {
	if dir == "" {
		return nil, mcconversion.Chain{}, nil
	}
	fsys := os.DirFS(dir)
	schemas, err := schema.Load(fsys, "openapi", values.GlobalKey)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, mcconversion.Chain{}, fmt.Errorf("global schemas: %w", err)
	}
	chain, err := mcconversion.Load(fsys, mcconversion.Dir)
	if err != nil {
		return nil, mcconversion.Chain{}, fmt.Errorf("global settings conversions (GLOBAL_HOOKS_DIR %s): %w", dir, err)
	}
	return schemas, chain, nil
}
