package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"unicode/utf8"
)

// CheckText refuses input that is not text: bytes that are not UTF-8, or
// a NUL byte (an audio file, an archive, a UTF-16 file). what names the
// input in the message ("standard input", a file name). Speaking,
// normalizing or segmenting such bytes as if they were text only prints
// garbage, with success.
func CheckText(data []byte, what string) error {
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return fmt.Errorf("%s is not text (a NUL byte at byte %d: audio, a binary file, or UTF-16 text)", what, i)
	}
	if !utf8.Valid(data) {
		i := 0
		for i < len(data) {
			r, n := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			i += n
		}
		return fmt.Errorf("%s is not UTF-8 text (byte %d); convert it first, e.g. iconv -f latin1 -t utf-8", what, i)
	}
	return nil
}

// CheckOutput refuses an output path that cannot be created, before the
// work whose result it would hold (an hour of audio transcribed, then
// "no such file or directory"): a directory, or a file in a directory that
// does not exist. flag names the flag in the message; "" and "-" (standard
// output) pass.
func CheckOutput(path, flag string) error {
	if path == "" || path == StdinName {
		return nil
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("%s %s is a directory; name a file", flag, path)
	}
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	switch {
	case err != nil:
		return fmt.Errorf("%s %s: the directory %s does not exist", flag, path, dir)
	case !fi.IsDir():
		return fmt.Errorf("%s %s: %s is not a directory", flag, path, dir)
	}
	return nil
}
