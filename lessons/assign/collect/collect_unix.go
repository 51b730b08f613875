//go:build unix

package collect

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// readOwned reads path for the student whose home and user ID are given
// if it is safe to: its real path inside home, a regular file of uid of
// at most MaxSize. It returns the content and the modification time.
func readOwned(path, home string, uid int) ([]byte, time.Time, error) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil, time.Time{}, err
	}
	home, err = filepath.EvalSymlinks(home)
	if err != nil {
		return nil, time.Time{}, err
	}
	if !strings.HasPrefix(real, home+string(filepath.Separator)) {
		return nil, time.Time{}, fmt.Errorf("%w: %s leads to %s, outside the student's home", ErrUnsafe, path, real)
	}
	f, err := os.OpenFile(real, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, time.Time{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, time.Time{}, err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	switch {
	case !fi.Mode().IsRegular():
		return nil, time.Time{}, fmt.Errorf("%w: %s is not a regular file", ErrUnsafe, path)
	case !ok || int(st.Uid) != uid:
		return nil, time.Time{}, fmt.Errorf("%w: %s is not the student's own file", ErrUnsafe, path)
	case fi.Size() > MaxSize:
		return nil, time.Time{}, fmt.Errorf("%w: %s is larger than %d MB", ErrUnsafe, path, MaxSize>>20)
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxSize+1))
	if err != nil {
		return nil, time.Time{}, err
	}
	return b, fi.ModTime(), nil
}
