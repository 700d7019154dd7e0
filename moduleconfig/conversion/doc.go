// Package conversion reads a module's versioned settings conversions,
// openapi/conversions/*.yaml in Deckhouse's format, and converts settings
// written at an older version to the latest one.
//
// Each file holds `version: N` (the version it converts to, from N-1) and
// `conversions`, a list of jq programs joined with " | " into one and run
// with gojq on the settings. The file's name is not read, only its
// version; every regular file ending in exactly ".yaml" is a conversion
// (testdata/ dirs and Go tests beside them are skipped, as Deckhouse's
// loader does). The latest version is the highest found, 1 without files;
// settings without a version are at version 1. A chain with a gap (v3
// without v2) is an error naming the file, as is a version given twice.
//
// It is pure but for Load, which reads the files from an fs.FS.
package conversion
