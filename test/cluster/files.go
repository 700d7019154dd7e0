package cluster

import (
	"fmt"
	"os"
	"path/filepath"
)

// WriteTree writes files (a path under root, or an absolute path when root
// is empty, to its content) with mode perm, creating their dirs: a test's
// modules tree, a bench's fixture, a node's config files.
func WriteTree(root string, files map[string]string, perm os.FileMode) error {
	for name, content := range files {
		path := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return fmt.Errorf("create the dir of %s: %w", path, err)
		}
		if err := os.WriteFile(path, []byte(content), perm); err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
	}
	return nil
}
