package hookexec

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// createWebhookFiles creates the webhook response files of a run, empty,
// in its directory (a reused directory has none: reset removed them).
func createWebhookFiles(files runFiles) error {
	return writeAll(
		fileContent{env: EnvValidatingResponsePath, path: files.admissionResponse, data: nil, empty: ""},
		fileContent{env: EnvConversionResponsePath, path: files.conversionResponse, data: nil, empty: ""},
	)
}

// webhookEnv names the response files: the admission response under both
// of shell-operator's names, as a hook written for it may use either.
func webhookEnv(files runFiles) []string {
	return []string{
		EnvValidatingResponsePath + "=" + files.admissionResponse,
		EnvAdmissionResponsePath + "=" + files.admissionResponse,
		EnvConversionResponsePath + "=" + files.conversionResponse,
	}
}

// readWebhookResponses reads what the hook wrote into the response files.
func readWebhookResponses(res *Result, files runFiles) error {
	var err error
	if res.AdmissionResponse, err = readResponse(EnvValidatingResponsePath, files.admissionResponse); err != nil {
		return err
	}
	res.ConversionResponse, err = readResponse(EnvConversionResponsePath, files.conversionResponse)
	return err
}

// readResponse is the file's content; nil when it is empty or the hook
// removed it.
func readResponse(env, path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) || len(data) == 0 && err == nil {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", env, err)
	}
	return data, nil
}
