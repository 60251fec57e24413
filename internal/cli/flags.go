package cli

import (
	"errors"
	"strings"

	"github.com/sottolabs/sotto"
)

// Flags maps the request fields that errors of Sotto's packages name (the
// Param of a [*sotto.Error]: "audio_track", "start" …, the HTTP API's
// parameter names) to the flags a command spells them with ("--track").
// The packages' messages stay the API's; a command renames at its edge,
// so that its user reads the flag they typed.
type Flags map[string]string

// Rename returns err with the field it names spelt as the command's flag:
// when err is or wraps a *sotto.Error whose Param f maps, the message's
// leading package prefix ("align: ") is dropped and the field's name at
// its start becomes the flag ("audio_track 2 is out of range" reads
// "--track 2 is out of range"); a message that does not start with the
// field is prefixed with the flag ("--end: window 100..200 s is not
// within …"). Text that wraps the message (a file name before it) is
// kept. The result unwraps to err, so errors.Is, errors.As and exit
// statuses are unchanged. Any other error (nil too) is returned as it is.
func (f Flags) Rename(err error) error {
	se, ok := errors.AsType[*sotto.Error](err)
	if !ok || se.Message == "" {
		return err
	}
	flag, ok := f[se.Param]
	if !ok {
		return err
	}
	full := err.Error()
	i := strings.Index(full, se.Message)
	if i < 0 {
		return err
	}
	msg := renameField(se.Message, se.Param, flag)
	return &renamedError{msg: full[:i] + msg + full[i+len(se.Message):], err: err}
}

// renameField spells field as flag in msg (see [Flags.Rename]).
func renameField(msg, field, flag string) string {
	rest := msg
	if j := strings.Index(rest, ": "); j > 0 && isPackageName(rest[:j]) {
		rest = rest[j+2:]
	}
	if after, ok := strings.CutPrefix(rest, field); ok && (after == "" || !isFieldByte(after[0])) {
		return flag + after
	}
	return flag + ": " + rest
}

// isPackageName reports whether s is a Go package name as messages begin
// with it ("align", "asr"): lower-case ASCII letters only.
func isPackageName(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return s != ""
}

// isFieldByte reports whether c can continue a field name (so that
// "start" is not found at the start of "start_margin").
func isFieldByte(c byte) bool {
	return c == '_' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

type renamedError struct {
	msg string
	err error
}

func (e *renamedError) Error() string { return e.msg }
func (e *renamedError) Unwrap() error { return e.err }
