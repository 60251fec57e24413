package server

import (
	"encoding/json"
	"net/http"
	"time"
)

// ndjsonWriter streams newline-delimited JSON objects, flushing after each
// line. It is used by the alignment progress stream (spec part 6.4): the
// status is 200 once the first line is out, and the last line is always the
// result or an {"error": ...} envelope.
type ndjsonWriter struct {
	w       http.ResponseWriter
	rc      *http.ResponseController
	started bool
	last    time.Time
	every   time.Duration
}

func newNDJSON(w http.ResponseWriter) *ndjsonWriter {
	return &ndjsonWriter{w: w, rc: http.NewResponseController(w), every: 100 * time.Millisecond}
}

// line writes v as one line and flushes it.
func (n *ndjsonWriter) line(v any) error {
	if !n.started {
		n.w.Header().Set("Content-Type", "application/x-ndjson")
		n.w.Header().Set("Cache-Control", "no-store")
		n.w.Header().Set("X-Accel-Buffering", "no")
		n.w.WriteHeader(http.StatusOK)
		n.started = true
	}
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	if _, err := n.w.Write(b); err != nil {
		return err
	}
	return n.rc.Flush()
}

// progress writes a progress line unless one was written within the
// throttle interval; the first, a final 1.0 and a forced one always go out.
func (n *ndjsonWriter) progress(v any, fraction float64, force bool) error {
	now := time.Now()
	if !force && n.started && fraction < 1 && now.Sub(n.last) < n.every {
		return nil
	}
	n.last = now
	return n.line(v)
}

// progressLine is the layout of an alignment progress line.
type progressLine struct {
	Object           string  `json:"object"` // "alignment.progress"
	Progress         float64 `json:"progress"`
	ProcessedSeconds float64 `json:"processed_seconds"`
	TotalSeconds     float64 `json:"total_seconds"`
}

// stageLine announces a new stage; progress restarts from 0 after it.
type stageLine struct {
	Object string `json:"object"` // "alignment.stage"
	Stage  string `json:"stage"`
}
