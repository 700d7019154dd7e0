package hookexec

import (
	"errors"
	"io"
	"io/fs"
	"syscall"
)

// rawFile is a run file opened with plain system calls, outside Go's
// poller. os.OpenFile costs four more system calls per file than the open
// itself (set non-blocking, offer the file to the poller, which refuses a
// regular file, set blocking again) and as many allocations; a hook run
// opens about ten files (its inputs, its outputs, the hook's #! line), so
// that was some forty system calls of every run. The run files are regular
// files (a FIFO is refused before it is read), which never block long
// enough for the poller to matter.
type rawFile struct {
	fd   int
	path string
}

// openRaw opens path close-on-exec (as os.OpenFile does: a hook started
// meanwhile must not inherit it).
func openRaw(path string, flag int, perm uint32) (rawFile, error) {
	for {
		fd, err := syscall.Open(path, flag|syscall.O_CLOEXEC, perm)
		if err == nil {
			return rawFile{fd: fd, path: path}, nil
		}
		if !errors.Is(err, syscall.EINTR) {
			return rawFile{fd: -1}, &fs.PathError{Op: "open", Path: path, Err: err}
		}
	}
}

// Write writes all of p, as os.File.Write does.
func (f rawFile) Write(p []byte) (int, error) {
	written := 0
	for written < len(p) {
		n, err := syscall.Write(f.fd, p[written:])
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return written, &fs.PathError{Op: "write", Path: f.path, Err: err}
		}
		written += n
	}
	return written, nil
}

// Read reads into p; io.EOF at the end, as os.File.Read.
func (f rawFile) Read(p []byte) (int, error) {
	for {
		n, err := syscall.Read(f.fd, p)
		switch {
		case errors.Is(err, syscall.EINTR):
			continue
		case err != nil:
			return 0, &fs.PathError{Op: "read", Path: f.path, Err: err}
		case n == 0 && len(p) > 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

// Truncate cuts the file to size bytes.
func (f rawFile) Truncate(size int64) error {
	if err := syscall.Ftruncate(f.fd, size); err != nil {
		return &fs.PathError{Op: "truncate", Path: f.path, Err: err}
	}
	return nil
}

// Close closes the file (a failed close is not retried: the descriptor is
// gone either way on Linux).
func (f rawFile) Close() error {
	if err := syscall.Close(f.fd); err != nil {
		return &fs.PathError{Op: "close", Path: f.path, Err: err}
	}
	return nil
}

// stat is the file's type and size, as os.File.Stat tells them.
func (f rawFile) stat() (fs.FileMode, int64, error) {
	var st syscall.Stat_t
	if err := syscall.Fstat(f.fd, &st); err != nil {
		return 0, 0, &fs.PathError{Op: "stat", Path: f.path, Err: err}
	}
	return fileType(st.Mode), st.Size, nil
}

// lstatRaw is the type and size of path itself (a symlink is not
// followed), in one system call and no allocation.
func lstatRaw(path string) (fs.FileMode, int64, error) {
	var st syscall.Stat_t
	if err := syscall.Lstat(path, &st); err != nil {
		return 0, 0, &fs.PathError{Op: "lstat", Path: path, Err: err}
	}
	return fileType(st.Mode), st.Size, nil
}

// fileType is the fs.FileMode type bits of a stat mode, as os.Stat sets
// them.
func fileType(mode uint32) fs.FileMode {
	switch mode & syscall.S_IFMT {
	case syscall.S_IFDIR:
		return fs.ModeDir
	case syscall.S_IFLNK:
		return fs.ModeSymlink
	case syscall.S_IFIFO:
		return fs.ModeNamedPipe
	case syscall.S_IFSOCK:
		return fs.ModeSocket
	case syscall.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFBLK:
		return fs.ModeDevice
	}
	return 0
}

var _ io.ReadWriter = rawFile{}
