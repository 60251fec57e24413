package sotto

import (
	"errors"
	"fmt"
	"time"
)

// SampleRate is the rate, in Hz, of the audio every capability consumes.
const SampleRate = 16000

// Audio is mono PCM in the range [-1, 1] at SampleRate Hz. The audio package
// decodes files and streams into it. Capabilities must not modify Samples.
type Audio struct {
	Samples    []float32
	SampleRate int // Hz; zero means SampleRate
}

// Rate returns the sample rate of a in Hz, defaulting to [SampleRate].
func (a Audio) Rate() int {
	if a.SampleRate <= 0 {
		return SampleRate
	}
	return a.SampleRate
}

// Duration returns the length of a.
func (a Audio) Duration() time.Duration {
	return time.Duration(float64(len(a.Samples)) / float64(a.Rate()) * float64(time.Second))
}

// Seconds returns the length of a in seconds.
func (a Audio) Seconds() float64 { return float64(len(a.Samples)) / float64(a.Rate()) }

// Error kinds. Every [*Error] has one of these as its Kind, and errors.Is
// matches an *Error against its kind. The server maps each kind to one HTTP
// status code.
var (
	ErrInvalidRequest = errors.New("invalid request")   // 400
	ErrUnauthorized   = errors.New("unauthorized")      // 401
	ErrForbidden      = errors.New("forbidden")         // 403
	ErrNotFound       = errors.New("not found")         // 404
	ErrConflict       = errors.New("conflict")          // 409
	ErrTooLarge       = errors.New("request too large") // 413
	ErrUnsatisfiable  = errors.New("unsatisfiable")     // 422
	ErrUnavailable    = errors.New("unavailable")       // 503
	ErrNotImplemented = errors.New("not implemented")   // 501
)

// Error is the typed error of every capability. Code and Param are the spec's
// machine-readable code (e.g. "language_unsupported") and the request field
// that caused it (e.g. "language"). Detail carries a structured object that
// the wire envelope includes under a capability-specific key (for alignment
// failures, the "alignment" object). RetryAfter, when positive, becomes the
// Retry-After header of a 503.
type Error struct {
	Kind       error
	Code       string
	Param      string
	Message    string
	Detail     any
	RetryAfter time.Duration
	Err        error
}

// Error returns the message, followed by the wrapped error when there is one.
func (e *Error) Error() string {
	msg := e.Message
	if msg == "" && e.Kind != nil {
		msg = e.Kind.Error()
	}
	if e.Err != nil {
		return msg + ": " + e.Err.Error()
	}
	return msg
}

// Unwrap returns the wrapped error, if any.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is e's Kind, so errors.Is(err, ErrNotFound) works.
func (e *Error) Is(target error) bool { return e.Kind != nil && target == e.Kind }

func newErr(kind error, code, param, format string, args []any) *Error {
	return &Error{Kind: kind, Code: code, Param: param, Message: fmt.Sprintf(format, args...)}
}

// Invalid returns a 400-kind error with the given spec code and parameter.
func Invalid(code, param, format string, args ...any) *Error {
	return newErr(ErrInvalidRequest, code, param, format, args)
}

// NotFound returns a 404-kind error.
func NotFound(code, param, format string, args ...any) *Error {
	return newErr(ErrNotFound, code, param, format, args)
}

// Unsatisfiable returns a 422-kind error.
func Unsatisfiable(code, param, format string, args ...any) *Error {
	return newErr(ErrUnsatisfiable, code, param, format, args)
}

// Unavailable returns a 503-kind error that asks the client to retry after d.
func Unavailable(code string, d time.Duration, format string, args ...any) *Error {
	e := newErr(ErrUnavailable, code, "", format, args)
	e.RetryAfter = d
	return e
}

// Conflict returns a 409-kind error.
func Conflict(code, param, format string, args ...any) *Error {
	return newErr(ErrConflict, code, param, format, args)
}

// NotImplemented returns a 501-kind error for a capability whose backend is
// not part of this build.
func NotImplemented(code, format string, args ...any) *Error {
	return newErr(ErrNotImplemented, code, "", format, args)
}

// TooLarge returns a 413-kind error.
func TooLarge(code, param, format string, args ...any) *Error {
	return newErr(ErrTooLarge, code, param, format, args)
}
