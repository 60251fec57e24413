package main

import "testing"

func TestKeepHandWritten(t *testing.T) {
	tail := handMarker + "\n\n### Through the API\n\nmeasured elsewhere\n"
	for _, tc := range []struct{ report, old, want string }{
		{"new figures\n", "", "new figures\n"},
		{"new figures\n", "old figures\n", "new figures\n"},
		{"new figures\n", "old figures\n\n" + tail, "new figures\n\n" + tail},
		{"new figures", "old\n" + tail, "new figures\n\n" + tail},
	} {
		if got := string(keepHandWritten([]byte(tc.report), []byte(tc.old))); got != tc.want {
			t.Errorf("keepHandWritten(%q, %q) = %q; want %q", tc.report, tc.old, got, tc.want)
		}
	}
}
