package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/sottolabs/sotto"
)

// This file is the only place that turns errors into HTTP status codes and
// the spec's error envelope (part 7):
//
//	{"error": {"message": "...", "type": "...", "code": "...", "param": "...", "alignment": {...}}}
//
// Capability packages return *sotto.Error values; everything else becomes a
// 500 whose message is redacted (the real error is logged).

// StatusClientClosedRequest is logged when the client went away before the
// response (nginx's 499); nothing is written to the closed connection.
const StatusClientClosedRequest = 499

// envelope is the wire form of an error.
type envelope struct {
	Error envelopeBody `json:"error"`
}

type envelopeBody struct {
	Message   string `json:"message"`
	Type      string `json:"type"`
	Code      string `json:"code"`
	Param     string `json:"param,omitempty"`
	Alignment any    `json:"alignment,omitempty"`
}

// kindStatus maps the root error kinds to HTTP status codes.
var kindStatus = []struct {
	kind   error
	status int
	typ    string
	code   string // default code when the error names none
}{
	{sotto.ErrInvalidRequest, http.StatusBadRequest, "invalid_request_error", "bad_request"},
	{sotto.ErrUnauthorized, http.StatusUnauthorized, "authentication_error", "invalid_api_key"},
	{sotto.ErrForbidden, http.StatusForbidden, "permission_error", "forbidden"},
	{sotto.ErrNotFound, http.StatusNotFound, "invalid_request_error", "not_found"},
	{sotto.ErrConflict, http.StatusConflict, "invalid_request_error", "conflict"},
	{sotto.ErrTooLarge, http.StatusRequestEntityTooLarge, "invalid_request_error", "request_too_large"},
	{sotto.ErrUnsatisfiable, http.StatusUnprocessableEntity, "invalid_request_error", "unprocessable"},
	{sotto.ErrUnavailable, http.StatusServiceUnavailable, "service_unavailable_error", "service_busy"},
	{sotto.ErrNotImplemented, http.StatusNotImplemented, "not_implemented_error", "not_implemented"},
}

// errorResponse is what errorFor decides for one error.
type errorResponse struct {
	status     int
	body       envelope
	retryAfter time.Duration
}

// errorFor maps err to its status and envelope. It never fails.
func errorFor(err error) errorResponse {
	var mbe *http.MaxBytesError
	var bie *BodyIdleError
	switch {
	case errors.Is(err, context.Canceled):
		return errorResponse{status: StatusClientClosedRequest, body: envelope{envelopeBody{
			Message: "request cancelled", Type: "invalid_request_error", Code: "request_cancelled"}}}
	case errors.Is(err, context.DeadlineExceeded):
		return errorResponse{status: http.StatusGatewayTimeout, body: envelope{envelopeBody{
			Message: "the request took too long", Type: "server_error", Code: "timeout"}}}
	case errors.As(err, &mbe):
		return errorResponse{status: http.StatusRequestEntityTooLarge, body: envelope{envelopeBody{
			Message: "request body exceeds " + strconv.FormatInt(mbe.Limit>>20, 10) + " MiB",
			Type:    "invalid_request_error", Code: "request_too_large"}}}
	case errors.As(err, &bie):
		return errorResponse{status: http.StatusRequestTimeout, body: envelope{envelopeBody{
			Message: bie.Error() + "; send the body without pauses",
			Type:    "invalid_request_error", Code: "request_timeout"}}}
	}
	var se *sotto.Error
	if errors.As(err, &se) {
		for _, k := range kindStatus {
			if se.Kind == k.kind {
				code := se.Code
				if code == "" {
					code = k.code
				}
				return errorResponse{status: k.status, retryAfter: se.RetryAfter, body: envelope{envelopeBody{
					Message: se.Error(), Type: k.typ, Code: code, Param: se.Param, Alignment: se.Detail}}}
			}
		}
	}
	return errorResponse{status: http.StatusInternalServerError, body: envelope{envelopeBody{
		Message: "internal error; see the service log", Type: "server_error", Code: "internal_error"}}}
}

// writeError logs err and writes its envelope. Errors of 500 and above are
// logged at Error level, the rest at Debug; a cancelled request writes
// nothing since the client is gone.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	resp := errorFor(err)
	level := slog.LevelDebug
	if resp.status >= 500 {
		level = slog.LevelError
	}
	s.log.Log(r.Context(), level, "request failed", "id", requestID(r.Context()), "method", r.Method,
		"path", r.URL.Path, "status", resp.status, "code", resp.body.Error.Code, "err", err)
	if resp.status == StatusClientClosedRequest {
		return
	}
	if resp.retryAfter > 0 {
		secs := int((resp.retryAfter + time.Second - 1) / time.Second)
		w.Header().Set("Retry-After", strconv.Itoa(secs))
	}
	if r.URL.Path == pathMessages || r.URL.Path == pathCountTokens {
		writeJSON(w, resp.status, messagesEnvelope(resp.body.Error))
		return
	}
	writeJSON(w, resp.status, resp.body)
}

// messagesEnvelope is the Messages protocol's own error shape:
// {"type":"error","error":{"type":...,"message":...}}. Sotto adds the code
// and param so programs can still branch on them.
func messagesEnvelope(b envelopeBody) any {
	typ := map[string]string{
		"invalid_request_error":     "invalid_request_error",
		"authentication_error":      "authentication_error",
		"permission_error":          "permission_error",
		"service_unavailable_error": "overloaded_error",
	}[b.Type]
	if typ == "" {
		typ = "api_error"
	}
	if b.Code == "model_not_found" {
		typ = "not_found_error"
	}
	e := map[string]any{"type": typ, "message": b.Message, "code": b.Code}
	if b.Param != "" {
		e["param"] = b.Param // as the other envelope: present where a field is at fault
	}
	return map[string]any{"type": "error", "error": e}
}

// writeJSON writes v as the JSON body with the given status. v is encoded
// before the status is sent, so a value JSON cannot carry (a NaN) is a 500
// internal_error rather than a success with an empty body.
func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		status = http.StatusInternalServerError
		buf.Reset()
		buf.WriteString(`{"error":{"message":"the result could not be encoded as JSON","type":"server_error","code":"internal_error"}}` + "\n")
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// isBodyLimit reports whether err is a request body read failing on one of
// the server's limits (size: 413, idle time: 408), which handlers pass on
// as it is rather than as a 400 about the body.
func isBodyLimit(err error) bool {
	var mbe *http.MaxBytesError
	var bie *BodyIdleError
	return errors.As(err, &mbe) || errors.As(err, &bie)
}
