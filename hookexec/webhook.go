package hookexec

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

// readWebhookResponses reads what the hook wrote into the response files,
// each at most limit bytes.
func readWebhookResponses(res *Result, files runFiles, limit int64) error {
	var err error
	res.AdmissionResponse, err = readResponse(outputFile{env: EnvValidatingResponsePath, path: files.admissionResponse, max: limit})
	if err != nil {
		return err
	}
	res.ConversionResponse, err = readResponse(outputFile{env: EnvConversionResponsePath, path: files.conversionResponse, max: limit})
	return err
}

// readResponse is the file's content; nil when it is empty or the hook
// removed it.
func readResponse(f outputFile) ([]byte, error) {
	data, err := readOutput(f)
	if err != nil || len(data) == 0 {
		return nil, err
	}
	return data, nil
}
