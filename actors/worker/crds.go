package worker

import (
	"context"
	"fmt"

	"github.com/addon-actors/addon-operator/chartrun/crds"
)

// CRDApplier applies a module's CRDs (chartrun/crds.Installer).
type CRDApplier interface {
	Apply(ctx context.Context, module string, docs []crds.CRD) error
}

type (
	// CRDJob applies the module's CRDs with Applier (the module's; the
	// worker of the global hooks has none).
	CRDJob struct {
		Module  string
		CRDs    []crds.CRD
		Applier CRDApplier
	}
	CRDResult struct{ Err error }
)

func (w *Worker) applyCRDs(job CRDJob) CRDResult {
	if err := job.Applier.Apply(w.ctx, job.Module, job.CRDs); err != nil {
		return CRDResult{Err: fmt.Errorf("ensure CRDs: %w", err)}
	}
	return CRDResult{}
}

// readCRDs reads the module's crds/ files when its hooks are configured:
// a file that is not a CRD leaves the module out, as a hook whose
// --config fails does.
func readCRDs(files []string) ([]crds.CRD, error) {
	if len(files) == 0 {
		return nil, nil
	}
	docs, err := crds.ReadFiles(files)
	if err != nil {
		return nil, fmt.Errorf("crds: %w", err)
	}
	return docs, nil
}
