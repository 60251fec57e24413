//go:build unix

package g2p

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestPhonemizerCancelKills cancels while a (fake, hanging) espeak-ng is
// running; the call must return the context error and the process must be
// gone.
func TestPhonemizerCancelKills(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	script := filepath.Join(dir, "espeak-ng")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho $$ > "+pidFile+".tmp && mv "+pidFile+".tmp "+pidFile+"\nexec sleep 600\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	p := NewPhonemizer(PhonemizerConfig{Path: script})
	done := make(chan error, 1)
	go func() {
		_, err := p.IPA(ctx, "de", []string{"Hans"})
		done <- err
	}()
	var pid int
	for pid == 0 {
		select {
		case err := <-done:
			t.Fatalf("IPA returned %v before it was cancelled", err)
		case <-time.After(10 * time.Millisecond):
		}
		if b, err := os.ReadFile(pidFile); err == nil {
			pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		}
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("IPA cancelled mid-run: err = %v; want context.Canceled", err)
	}
	if err := syscall.Kill(pid, 0); err == nil {
		t.Errorf("espeak-ng process %d still alive after cancel", pid)
		syscall.Kill(pid, syscall.SIGKILL)
	}
}

// TestPhonemizerLineMismatch feeds a fake espeak-ng that prints two lines
// for one word: the batch must be split until each word has its lines.
func TestPhonemizerLineMismatch(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	script := filepath.Join(t.TempDir(), "espeak-ng")
	body := "#!/bin/sh\nwhile IFS= read -r l; do case \"$l\" in *SPLIT*) echo one; echo two;; *) echo \"<$l>\";; esac; done\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	p := NewPhonemizer(PhonemizerConfig{Path: script, Workers: -1})
	got, err := p.IPA(context.Background(), "de", []string{"a", "b", "SPLIT", "c", "d"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"<a>", "<b>", "one two", "<c>", "<d>"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("IPA with a two-line word = %q; want %q", got, want)
	}
	// 1 + halves [a b] [SPLIT c d] + [SPLIT] [c d] = 5 processes, not one per word after the first.
	if p.calls != 5 {
		t.Errorf("espeak-ng ran %d times; want 5", p.calls)
	}
	// A warm process (the fake answers line by line too) asks again with
	// the sentinel after every word: same answer, no process of its own.
	warm := NewPhonemizer(PhonemizerConfig{Path: script})
	defer warm.Close()
	got, err = warm.IPA(context.Background(), "de", []string{"a", "b", "SPLIT", "c", "d"})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, starts := warm.pool.stats(); strings.Join(got, "|") != strings.Join(want, "|") || warm.calls != 0 || starts != 1 {
		t.Errorf("warm IPA with a two-line word = %q with %d one-shot and %d warm processes; want %q, 0, 1", got, warm.calls, starts, want)
	}
}
