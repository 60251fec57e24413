package server

import (
	"log/slog"
	"net/http/httptest"
	"testing"
	"time"
)

type httptestServer = httptest.Server

func waitABit() { time.Sleep(50 * time.Millisecond) }

// testLogger logs at Error level through t.Log, so failures show causes.
func testLogger(t *testing.T) *slog.Logger {
	return slog.New(slog.NewTextHandler(tWriter{t}, &slog.HandlerOptions{Level: slog.LevelError}))
}

type tWriter struct{ t *testing.T }

func (w tWriter) Write(p []byte) (int, error) { w.t.Log(string(p)); return len(p), nil }
