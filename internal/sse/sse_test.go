package sse

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

type event struct{ Name, Data string }

func collect(t *testing.T, in string) ([]event, error) {
	t.Helper()
	var got []event
	err := Read(strings.NewReader(in), func(name, data string) error {
		got = append(got, event{name, data})
		return nil
	})
	return got, err
}

func TestRead(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []event
	}{
		{"openai chunks", "data: {\"a\":1}\n\ndata: [DONE]\n\n", []event{{"", `{"a":1}`}, {"", "[DONE]"}}},
		{"named events", "event: message_start\ndata: {}\n\nevent: ping\ndata: {\"type\":\"ping\"}\n\n",
			[]event{{"message_start", "{}"}, {"ping", `{"type":"ping"}`}}},
		{"multi-line data", "data: one\ndata: two\n\n", []event{{"", "one\ntwo"}}},
		{"no space after colon", "data:x\n\n", []event{{"", "x"}}},
		{"only the first space is dropped", "data:  x\n\n", []event{{"", " x"}}},
		{"comments and other fields skipped", ": keep-alive\nid: 7\nretry: 10\ndata: x\n\n", []event{{"", "x"}}},
		{"CRLF lines", "event: e\r\ndata: x\r\n\r\n", []event{{"e", "x"}}},
		{"event without data not dispatched", "event: e\n\ndata: x\n\n", []event{{"", "x"}}},
		{"last event without blank line", "data: x", []event{{"", "x"}}},
		{"empty", "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := collect(t, tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
		})
	}
}

func TestReadStops(t *testing.T) {
	in := "data: 1\n\ndata: 2\n\ndata: 3\n\n"
	n := 0
	err := Read(strings.NewReader(in), func(_, data string) error {
		n++
		if data == "2" {
			return ErrDone
		}
		return nil
	})
	if err != nil || n != 2 {
		t.Errorf("ErrDone: err %v after %d events, want nil after 2", err, n)
	}
	boom := errors.New("boom")
	err = Read(strings.NewReader(in), func(string, string) error { return boom })
	if !errors.Is(err, boom) {
		t.Errorf("callback error: got %v, want boom", err)
	}
}

func TestReadTooLong(t *testing.T) {
	in := "data: " + strings.Repeat("x", MaxEvent) + "\n\n"
	if _, err := collect(t, in); err == nil {
		t.Error("a line over MaxEvent was accepted")
	}
}

func FuzzRead(f *testing.F) {
	f.Add("event: a\ndata: b\n\n")
	f.Add("data: x\r\ndata: y\r\n\r\n: c\n")
	f.Add(":\n\n\ndata")
	f.Fuzz(func(t *testing.T, in string) {
		var n int
		err := Read(strings.NewReader(in), func(name, data string) error {
			if strings.ContainsAny(name, "\n") {
				t.Fatalf("event name %q holds a newline", name)
			}
			n++
			return nil
		})
		if err != nil {
			t.Fatalf("Read(%q): %v", in, err)
		}
		if n > strings.Count(in, "data") {
			t.Fatalf("%d events from %d data fields", n, strings.Count(in, "data"))
		}
	})
}
