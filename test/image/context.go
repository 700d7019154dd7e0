package image

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// ignoreRules are the patterns of a .dockerignore, in the subset this
// package reads: plain patterns (a match excludes a file or a whole dir)
// and a leading **/ (the rest matches any one path element). An exception
// (!) or ** elsewhere is an error rather than a silent difference from
// what podman sends.
type ignoreRules struct {
	anywhere []string // **/P: P against each path element
	rooted   []string // P against the path and each of its parent dirs
}

func readIgnore(file string) (ignoreRules, error) {
	f, err := os.Open(file)
	if os.IsNotExist(err) {
		return ignoreRules{}, nil
	}
	if err != nil {
		return ignoreRules{}, fmt.Errorf("read %s: %w", file, err)
	}
	defer f.Close()
	var rules ignoreRules
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		p := strings.TrimPrefix(path.Clean(strings.TrimPrefix(line, "/")), "./")
		rest, anywhere := strings.CutPrefix(p, "**/")
		if strings.HasPrefix(p, "!") || strings.Contains(rest, "**") || (anywhere && strings.Contains(rest, "/")) {
			return ignoreRules{}, fmt.Errorf("%s:%d: %q: only plain patterns and a leading **/ are read here", file, n, line)
		}
		if _, err := path.Match(rest, ""); err != nil {
			return ignoreRules{}, fmt.Errorf("%s:%d: %q: %w", file, n, line, err)
		}
		if anywhere {
			rules.anywhere = append(rules.anywhere, rest)
		} else {
			rules.rooted = append(rules.rooted, rest)
		}
	}
	return rules, sc.Err()
}

// ignored says whether rel (slash-separated, relative to the context)
// is left out of the build context.
func (r ignoreRules) ignored(rel string) bool {
	elems := strings.Split(rel, "/")
	for i, elem := range elems {
		prefix := strings.Join(elems[:i+1], "/")
		for _, p := range r.rooted {
			if ok, _ := path.Match(p, prefix); ok {
				return true
			}
		}
		for _, p := range r.anywhere {
			if ok, _ := path.Match(p, elem); ok {
				return true
			}
		}
	}
	return false
}

// contextKey hashes the build context rooted at root as .dockerignore
// leaves it: each file's path, mode and content, each symlink's target.
func contextKey(root string) (string, error) {
	rules, err := readIgnore(filepath.Join(root, ".dockerignore"))
	if err != nil {
		return "", err
	}
	h := sha256.New()
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if rel == "." {
			return nil
		}
		if rules.ignored(rel) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		return hashEntry(h, p, rel, d)
	})
	if err != nil {
		return "", fmt.Errorf("hash the build context %s: %w", root, err)
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

func hashEntry(h io.Writer, p, rel string, d fs.DirEntry) error {
	info, err := d.Info()
	if err != nil {
		return err
	}
	switch {
	case info.Mode().IsRegular():
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		fmt.Fprintf(h, "file %s %o %d\n", rel, info.Mode().Perm(), info.Size())
		_, err = io.Copy(h, f)
		return err
	case info.Mode()&fs.ModeSymlink != 0:
		target, err := os.Readlink(p)
		fmt.Fprintf(h, "link %s %s\n", rel, target)
		return err
	case info.IsDir():
		fmt.Fprintf(h, "dir %s %o\n", rel, info.Mode().Perm())
	}
	return nil
}
