package main

import (
	"bytes"
	"errors"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestMain lets a test run this program's main in a child process (the
// test binary re-executed with SOTTO_CLI_TEST_MAIN=1), to send it signals.
func TestMain(m *testing.M) {
	if os.Getenv("SOTTO_CLI_TEST_MAIN") == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// syncBuffer is a bytes.Buffer safe to write from the child's pipe and
// read from the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestServeSecondInterrupt: Ctrl-C makes serve wait for the requests in
// flight (here a client that sent half its headers); a second Ctrl-C ends
// the program at once instead of being swallowed until the 30 s shutdown
// timeout.
func TestServeSecondInterrupt(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server process")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	cmd := exec.Command(os.Args[0], "serve", "--listen", addr, "--data-dir", t.TempDir(), "--download", "none")
	cmd.Env = append(os.Environ(), "SOTTO_CLI_TEST_MAIN=1", "SOTTO_API_KEY=")
	var stderr syncBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		for deadline := time.Now().Add(60 * time.Second); !ok(); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%s did not happen; server log:\n%s", what, stderr.String())
			}
		}
	}
	waitFor("the server starting", func() bool {
		r, err := http.Get("http://" + addr + "/health")
		if err == nil {
			r.Body.Close()
		}
		return err == nil
	})
	// A request in flight: its headers sent whole and its body only begun, so
	// the handler is reading it and the connection is active. (With the
	// headers half sent the connection would still be new to net/http, which
	// lets a graceful stop close such a connection after 5 s: on a loaded
	// machine the stop then ended by itself before the second interrupt.)
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.Write([]byte("POST /v1/text/segmentations HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"input\": \"Hello"))
	time.Sleep(100 * time.Millisecond) // let the server read the headers: the handler waits for the rest of the body
	cmd.Process.Signal(os.Interrupt)
	waitFor("the graceful stop", func() bool { return strings.Contains(stderr.String(), "Ctrl-C again") })
	cmd.Process.Signal(os.Interrupt)
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("serve after two interrupts: %v; want it ended by the second", err)
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGINT {
		t.Errorf("serve after two interrupts ended with %v; want killed by SIGINT (log:\n%s)", ee, stderr.String())
	}
}
