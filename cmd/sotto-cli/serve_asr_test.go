package main

import (
	"io"
	"testing"
)

// TestParseServeDefaultASR: --default-asr-model, or SOTTO_DEFAULT_ASR_MODEL,
// names the transcription model of requests that name none; the flag wins.
func TestParseServeDefaultASR(t *testing.T) {
	for _, tt := range []struct {
		args []string
		env  map[string]string
		want string
	}{
		{nil, nil, ""},
		{nil, map[string]string{"SOTTO_DEFAULT_ASR_MODEL": "Sotto/A"}, "Sotto/A"},
		{[]string{"--default-asr-model", "Sotto/B"}, map[string]string{"SOTTO_DEFAULT_ASR_MODEL": "Sotto/A"}, "Sotto/B"},
	} {
		c, err := parseServe(tt.args, env(tt.env), io.Discard, io.Discard)
		if err != nil || c.defaultASR != tt.want {
			t.Errorf("parseServe(%v, %v) = default ASR %q, %v; want %q", tt.args, tt.env, c.defaultASR, err, tt.want)
		}
	}
}
