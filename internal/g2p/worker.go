package g2p

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"time"
)

// Warm processes. Starting espeak-ng costs a process start and a voice
// load (about 10 ms on an idle machine, far more under load), starting mecab
// a dictionary load; a long-running server pays that on every call unless
// the programs stay up between calls. A pool keeps a bounded number of such
// processes, each reading requests line by line on its standard input and
// answering on its standard output, and ends those idle for longer than its
// timeout. A request that finds every process busy, or whose answer cannot
// be framed, takes the one-shot path (a process of its own) instead, so the
// pool only ever changes the speed, never the result.

// Defaults of [PhonemizerConfig]; the idle timeout is also [MeCab]'s.
const (
	defaultWorkers     = 4
	defaultIdleTimeout = time.Minute
)

// errWorker reports a warm process that failed or whose answer could not
// be framed; the caller falls back to the one-shot path.
var errWorker = errors.New("g2p: warm process failed")

// worker is one long-running program serving one key (an espeak-ng voice,
// or "" for mecab).
type worker struct {
	key    string
	cmd    *exec.Cmd
	in     *os.File // write end of the program's standard input
	outF   *os.File // read end of its standard output
	out    *bufio.Reader
	exited chan struct{} // closed once the process has been reaped

	// sentinel is, for espeak-ng, the output line of [sentinelWord] in
	// this voice.
	sentinel string
	idle     time.Time // when it was last returned to the pool
}

// startWorker starts path with args, its standard input and output on
// pipes and its standard error discarded. The process is not tied to a
// context: it outlives the request that started it.
func startWorker(key, path string, args ...string) (*worker, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	cmd := exec.Command(path, args...)
	cmd.Stdin, cmd.Stdout = inR, outW
	err = cmd.Start()
	inR.Close() // the child holds its own copies
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, err
	}
	w := &worker{key: key, cmd: cmd, in: inW, outF: outR, out: bufio.NewReaderSize(outR, 64<<10), exited: make(chan struct{})}
	go func() {
		cmd.Wait()
		close(w.exited)
	}()
	return w, nil
}

// kill ends the process; it may be called any number of times, from any
// goroutine.
func (w *worker) kill() { w.cmd.Process.Kill() }

// abort kills the process and makes pending reads and writes on its pipes
// return at once, even if a child of the program still holds them.
func (w *worker) abort() {
	w.kill()
	w.outF.SetReadDeadline(time.Now())
	w.in.SetWriteDeadline(time.Now())
}

// close kills the process, waits (briefly) until it is reaped and releases
// the pipes.
func (w *worker) close() {
	w.kill()
	select {
	case <-w.exited:
	case <-time.After(time.Second):
	}
	w.in.Close()
	w.outF.Close()
}

// roundTrip writes input and hands each output line (with its line break)
// to next until next reports the answer complete. It fails with errWorker
// when the process dies, does not answer within timeout, or has written
// more than the answer; with ctx's error when ctx is cancelled, which
// kills the process. After any error the worker must be discarded.
func (w *worker) roundTrip(ctx context.Context, input string, timeout time.Duration, next func(line string) (done bool, err error)) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	stop := context.AfterFunc(ctx, w.abort)
	defer stop()
	if err := w.outF.SetReadDeadline(time.Now().Add(timeout)); err != nil {
		return fmt.Errorf("%w: %v", errWorker, err)
	}
	if err := w.in.SetWriteDeadline(time.Now().Add(timeout)); err != nil {
		return fmt.Errorf("%w: %v", errWorker, err)
	}
	wrote := make(chan error, 1)
	go func() {
		_, err := w.in.WriteString(input)
		wrote <- err
	}()
	var rerr error
	for {
		line, err := w.out.ReadString('\n')
		if err != nil {
			rerr = fmt.Errorf("%w: %v", errWorker, err)
			break
		}
		done, err := next(line)
		if err != nil {
			rerr = err
			break
		}
		if done {
			if w.out.Buffered() > 0 {
				rerr = fmt.Errorf("%w: output beyond the answer", errWorker)
			}
			break
		}
	}
	if rerr != nil {
		w.abort() // unblocks the writer
	}
	werr := <-wrote
	if !stop() || ctx.Err() != nil {
		w.kill()
		return ctx.Err()
	}
	if rerr != nil {
		return rerr
	}
	if werr != nil {
		return fmt.Errorf("%w: %v", errWorker, werr)
	}
	return nil
}

// pipeDeadlines reports whether pipes take read and write deadlines here
// (not on Windows), which the warm processes need to be abandoned safely.
var pipeDeadlines = sync.OnceValue(func() bool {
	r, w, err := os.Pipe()
	if err != nil {
		return false
	}
	defer r.Close()
	defer w.Close()
	return r.SetReadDeadline(time.Time{}) == nil && w.SetWriteDeadline(time.Time{}) == nil
})

// pool keeps at most max warm workers, across keys, and ends those idle for
// longer than idle. It is safe for concurrent use.
type pool struct {
	max   int
	idle  time.Duration
	start func(ctx context.Context, key string) (*worker, error)

	mu     sync.Mutex
	free   []*worker // idle workers, least recently used first
	live   int       // workers started and not yet discarded
	timer  *time.Timer
	closed bool
	starts int // workers started, for tests and benchmarks
}

func newPool(max int, idle time.Duration, start func(ctx context.Context, key string) (*worker, error)) *pool {
	if max == 0 {
		max = defaultWorkers
	}
	if idle <= 0 {
		idle = defaultIdleTimeout
	}
	if max < 0 || !pipeDeadlines() {
		return nil // warm processes disabled, or unsafe without deadlines
	}
	return &pool{max: max, idle: idle, start: start}
}

// get returns an idle worker for key, or starts one. It returns nil and no
// error when every slot is busy (the caller takes the one-shot path); a
// worker that cannot be started gives its error.
func (p *pool) get(ctx context.Context, key string) (*worker, error) {
	if p == nil {
		return nil, nil
	}
	var dead []*worker // closed once the lock is released
	defer func() {
		for _, w := range dead {
			w.close()
		}
	}()
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, nil
	}
	for i := len(p.free) - 1; i >= 0; i-- {
		w := p.free[i]
		if w.key != key {
			continue
		}
		p.free = append(p.free[:i], p.free[i+1:]...)
		select {
		case <-w.exited: // died while idle: replace it
			dead = append(dead, w)
			p.live--
			continue
		default:
		}
		p.mu.Unlock()
		return w, nil
	}
	if p.live >= p.max {
		if len(p.free) == 0 {
			p.mu.Unlock()
			return nil, nil
		}
		dead = append(dead, p.free[0]) // the least recently used worker of another key
		p.free = p.free[1:]
		p.live--
	}
	p.live++
	p.starts++
	p.mu.Unlock()
	w, err := p.start(ctx, key)
	if err != nil {
		p.mu.Lock()
		p.live--
		p.mu.Unlock()
		return nil, err
	}
	return w, nil
}

// put returns a healthy worker to the pool.
func (p *pool) put(w *worker) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		w.close()
		p.live--
		return
	}
	w.idle = time.Now()
	p.free = append(p.free, w)
	if p.timer == nil {
		p.timer = time.AfterFunc(p.idle, p.reap)
	}
}

// discard ends a worker that failed or was cancelled.
func (p *pool) discard(w *worker) {
	w.close()
	p.mu.Lock()
	p.live--
	p.mu.Unlock()
}

// reap ends the workers idle for at least p.idle and rearms the timer for
// the rest.
func (p *pool) reap() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.timer = nil
	if p.closed {
		return
	}
	now := time.Now()
	keep := p.free[:0]
	for _, w := range p.free {
		if now.Sub(w.idle) >= p.idle {
			w.close()
			p.live--
			continue
		}
		keep = append(keep, w)
	}
	clear(p.free[len(keep):])
	p.free = keep
	if len(p.free) > 0 {
		p.timer = time.AfterFunc(p.idle-now.Sub(p.free[0].idle), p.reap)
	}
}

// close ends the idle workers at once and makes the pool end the busy ones
// when they are returned; later requests take the one-shot path.
func (p *pool) close() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	if p.timer != nil {
		p.timer.Stop()
		p.timer = nil
	}
	for _, w := range p.free {
		w.close()
		p.live--
	}
	p.free = nil
}

// stats reports the live and idle workers and the number started, for
// tests.
func (p *pool) stats() (live, idle, starts int) {
	if p == nil {
		return 0, 0, 0
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.live, len(p.free), p.starts
}
