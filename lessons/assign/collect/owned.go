package collect

import "errors"

// What collect reads from a student's home, and what it refuses.

// MaxSize is the largest notebook collected (an executed lesson is under
// 2 MB).
const MaxSize = 50 << 20

// ErrUnsafe is the error kind of a notebook collect refuses to read.
var ErrUnsafe = errors.New("collect: refused")
