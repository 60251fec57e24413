package progress

import (
	"bytes"
	"os"
	"runtime"
	"testing"
)

func TestBar(t *testing.T) {
	var b bytes.Buffer
	bar := New(&b, "transcribing", 10)
	bar.Update(0, 0)
	bar.Update(0.001, 0.01) // same percentage: not redrawn
	bar.Update(0.5, 5)
	bar.Note("wider search")
	bar.Update(1.5, 12) // clamped
	bar.Finish()
	bar.Finish() // idempotent
	want := "\rtranscribing [                              ]   0%  0.0 / 10.0 s" +
		"\rtranscribing [===============               ]  50%  5.0 / 10.0 s\n" +
		"wider search\n" +
		"\rtranscribing [==============================] 100%  10.0 / 10.0 s\n"
	if b.String() != want {
		t.Errorf("bar wrote\n%q\nwant\n%q", b.String(), want)
	}
}

func TestNilBar(t *testing.T) {
	var bar *Bar
	bar.Update(0.5, 1)
	bar.Note("x")
	bar.Finish()
}

func TestIsTerminal(t *testing.T) {
	if IsTerminal(&bytes.Buffer{}) {
		t.Error("IsTerminal(*bytes.Buffer) = true")
	}
	f, err := os.CreateTemp(t.TempDir(), "x")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if IsTerminal(f) {
		t.Error("IsTerminal(regular file) = true")
	}
	if runtime.GOOS != "linux" {
		return
	}
	// /dev/null is a character device but no terminal: sotto-speak
	// "Hi" > /dev/null wrote speech.wav, sotto-chat < /dev/null chatted.
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	if IsTerminal(null) {
		t.Error("IsTerminal(/dev/null) = true")
	}
	// A pseudo-terminal is one.
	pty, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Logf("no pseudo-terminal to check the positive case: %v", err)
		return
	}
	defer pty.Close()
	if !IsTerminal(pty) {
		t.Error("IsTerminal(/dev/ptmx) = false")
	}
}
