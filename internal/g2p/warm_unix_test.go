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

// fakeProgram writes a shell script that records its pid in dir/pid and
// answers each input line with "<line>", except that a line HANG makes it
// hang; it returns the script's path and a function waiting for the pid.
func fakeProgram(t *testing.T, name, eos string) (string, func() int) {
	t.Helper()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	script := filepath.Join(dir, name)
	body := "#!/bin/sh\necho $$ > " + pidFile + ".tmp && mv " + pidFile + ".tmp " + pidFile + "\n" +
		"while IFS= read -r l; do case \"$l\" in HANG) exec sleep 600;; *) echo \"<$l>\"" + eos + ";; esac; done\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return script, func() int {
		for range 500 {
			if b, err := os.ReadFile(pidFile); err == nil {
				if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
					return pid
				}
			}
			time.Sleep(10 * time.Millisecond)
		}
		t.Fatal("fake program did not start")
		return 0
	}
}

// gone waits up to 5 s for process pid to disappear (reaped).
func gone(pid int) bool {
	for range 500 {
		if err := syscall.Kill(pid, 0); err != nil {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}

// cancelDuring runs call, cancels it after 100 ms and returns its error.
func cancelDuring(t *testing.T, call func(ctx context.Context) error) error {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- call(ctx) }()
	select {
	case err := <-done:
		t.Fatalf("call returned %v before it was cancelled", err)
	case <-time.After(100 * time.Millisecond):
	}
	cancel()
	select {
	case err := <-done:
		return err
	case <-time.After(5 * time.Second):
		t.Fatal("call still running 5 s after cancel")
		return nil
	}
}

// TestWarmEspeakCancel cancels a request to a warm (fake, hanging)
// espeak-ng: the call must return the context error, the process must be
// gone and the pool must not keep it.
func TestWarmEspeakCancel(t *testing.T) {
	script, pid := fakeProgram(t, "espeak-ng", "")
	p := NewPhonemizer(PhonemizerConfig{Path: script, CacheSize: -1})
	defer p.Close()
	if got, err := p.IPA(context.Background(), "de", []string{"a"}); err != nil || got[0] != "<a>" {
		t.Fatalf("IPA(a) = %q, %v; want <a> from the warm fake", got, err)
	}
	pid1 := pid()
	err := cancelDuring(t, func(ctx context.Context) error {
		_, err := p.IPA(ctx, "de", []string{"b", "HANG"})
		return err
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("IPA cancelled mid-request: err = %v; want context.Canceled", err)
	}
	if !gone(pid1) {
		t.Errorf("warm process %d still alive after cancel", pid1)
		syscall.Kill(pid1, syscall.SIGKILL)
	}
	if live, idle, _ := p.pool.stats(); live != 0 || idle != 0 {
		t.Errorf("after cancel: %d live, %d idle warm processes; want none", live, idle)
	}
	if p.calls != 0 {
		t.Errorf("a cancelled request started %d one-shot processes; want none", p.calls)
	}
}

// TestWarmEspeakCrash kills a warm espeak-ng between calls, once reaped
// and once right before the next call: the next calls must still give
// the right answer, and a new warm process must serve them.
func TestWarmEspeakCrash(t *testing.T) {
	needEspeak(t)
	p := NewPhonemizer(PhonemizerConfig{CacheSize: -1})
	defer p.Close()
	ctx := context.Background()
	for round := range 3 {
		got, err := p.IPA(ctx, "de", []string{"Hans", "der"})
		if err != nil || got[0] != "hˈɑːns" || got[1] != "dˈɛɾ" {
			t.Fatalf("round %d: IPA = %q, %v", round, got, err)
		}
		if round == 2 {
			break
		}
		// Reaped in round 0: the next call replaces it at once; in round 1
		// the next call may find it alive, fail and fall back.
		killWarm(p.pool, round == 0)
	}
	got, err := p.IPA(ctx, "de", []string{"Hans"})
	if err != nil || got[0] != "hˈɑːns" {
		t.Fatalf("after crashes: IPA = %q, %v", got, err)
	}
	if live, _, starts := p.pool.stats(); live != 1 || starts < 2 {
		t.Errorf("after 2 killed processes: %d live, %d started; want 1 live and the dead replaced", live, starts)
	}
}

// TestWarmMeCabCancel is TestWarmEspeakCancel for mecab.
func TestWarmMeCabCancel(t *testing.T) {
	script, pid := fakeProgram(t, "mecab", "; echo EOS")
	m := &MeCab{Path: script}
	defer m.Close()
	if ms, err := m.Parse(context.Background(), "a"); err != nil || len(ms) != 0 {
		// "<a>" has no tab: ParseMeCab rejects it, which shows the
		// output came from the fake.
		if err == nil || !strings.Contains(err.Error(), "no tab-separated surface") {
			t.Fatalf("Parse(a) = %v, %v; want the fake's output rejected", ms, err)
		}
	}
	pid1 := pid()
	err := cancelDuring(t, func(ctx context.Context) error {
		_, err := m.Parse(ctx, "b\nHANG")
		return err
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Parse cancelled mid-request: err = %v; want context.Canceled", err)
	}
	if !gone(pid1) {
		t.Errorf("warm mecab %d still alive after cancel", pid1)
		syscall.Kill(pid1, syscall.SIGKILL)
	}
	if live, idle, _ := m.pool.stats(); live != 0 || idle != 0 {
		t.Errorf("after cancel: %d live, %d idle warm processes; want none", live, idle)
	}
}

// TestWarmMeCabCrash is TestWarmEspeakCrash for mecab.
func TestWarmMeCabCrash(t *testing.T) {
	needMeCab(t)
	m := &MeCab{}
	defer m.Close()
	ctx := context.Background()
	for round := range 3 {
		ms, err := m.Parse(ctx, "今日は")
		if err != nil || len(ms) != 2 || ms[1].Pronunciation != "ワ" {
			t.Fatalf("round %d: Parse = %+v, %v", round, ms, err)
		}
		if round == 2 {
			break
		}
		killWarm(m.pool, round == 0)
	}
	if ms, err := m.Parse(ctx, "今日は"); err != nil || len(ms) != 2 {
		t.Fatalf("after crashes: Parse = %+v, %v", ms, err)
	}
	if live, _, starts := m.pool.stats(); live != 1 || starts < 2 {
		t.Errorf("after 2 killed processes: %d live, %d started; want 1 live and the dead replaced", live, starts)
	}
}

// killWarm kills an idle warm process of p with SIGKILL and, when reap is
// set, waits until the pool has seen it exit.
func killWarm(p *pool, reap bool) {
	p.mu.Lock()
	w := p.free[0]
	p.mu.Unlock()
	w.cmd.Process.Signal(syscall.SIGKILL)
	if reap {
		<-w.exited
	}
}
