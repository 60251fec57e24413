package server

import (
	"encoding/json"
	"net/http"
)

// sseWriter streams Server-Sent Events, flushing after each event. The
// status is 200 once the first event is out; until then the handler may
// still answer with an ordinary error. Every stream ends with a terminal
// result or "error" event (house style: streams on the wire).
type sseWriter struct {
	w       http.ResponseWriter
	rc      *http.ResponseController
	started bool
}

func newSSE(w http.ResponseWriter) *sseWriter {
	return &sseWriter{w: w, rc: http.NewResponseController(w)}
}

// event writes one event named name whose data is v as JSON, and flushes it.
func (s *sseWriter) event(name string, v any) error {
	if !s.started {
		h := s.w.Header()
		h.Set("Content-Type", "text/event-stream")
		h.Set("Cache-Control", "no-cache")
		h.Set("X-Accel-Buffering", "no")
		s.w.WriteHeader(http.StatusOK)
		s.started = true
	}
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	buf := make([]byte, 0, len(name)+len(b)+16)
	buf = append(buf, "event: "...)
	buf = append(buf, name...)
	buf = append(buf, "\ndata: "...)
	buf = append(buf, b...)
	buf = append(buf, "\n\n"...)
	if _, err := s.w.Write(buf); err != nil {
		return err
	}
	return s.rc.Flush()
}

// sseError is the data of an "error" event: the error envelope with the
// event's type, {"type": "error", "error": {...}}.
type sseError struct {
	Type  string       `json:"type"`
	Error envelopeBody `json:"error"`
}
