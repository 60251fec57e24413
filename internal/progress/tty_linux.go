package progress

import (
	"os"

	"golang.org/x/sys/unix"
)

// isTTY reports whether the character device f is a terminal: it has
// terminal attributes (isatty).
func isTTY(f *os.File) bool {
	_, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	return err == nil
}
