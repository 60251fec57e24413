package g2p

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
)

// sentinelWord ends every request to a warm espeak-ng process. Any voice
// spells it out letter by letter, a long output line no word of a request
// gives by chance; a request with a word containing it takes the one-shot
// path.
const sentinelWord = "qxqzjq"

// Time limits of a warm process: to start and answer the handshake, and to
// answer a request (on top of a per-word allowance). They only guard
// against a program that stops answering; the request then takes the
// one-shot path.
const (
	warmStartTimeout   = 10 * time.Second
	warmRequestTimeout = 20 * time.Second
	warmPerWordTimeout = 20 * time.Millisecond
)

// startWorker starts a warm espeak-ng process for voice: the one-shot
// arguments without --stdin, so that espeak-ng reads and answers line by
// line. The handshake sends the sentinel twice and learns its output line,
// which must be non-empty and the same both times (one line per input).
func (p *Phonemizer) startWorker(ctx context.Context, voice string) (*worker, error) {
	w, err := startWorker(voice, p.path, "-q", "--ipa", "-b", "1", "-l", "1000", "-v", voice)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errWorker, err)
	}
	var lines []string
	err = w.roundTrip(ctx, sentinelWord+"\n"+sentinelWord+"\n", warmStartTimeout, func(line string) (bool, error) {
		lines = append(lines, strings.TrimSuffix(line, "\n"))
		return len(lines) == 2, nil
	})
	if err == nil && (strings.TrimSpace(lines[0]) == "" || lines[0] != lines[1]) {
		err = fmt.Errorf("%w: espeak-ng -v %s answered the handshake with %q", errWorker, voice, lines)
	}
	if err != nil {
		w.close()
		return nil, err
	}
	w.sentinel = lines[0]
	return w, nil
}

// runWarm phonemises words (none longer than longWord) with a warm process
// for voice: the words one per line, then the sentinel, read up to the
// sentinel's line. One line per word is the answer. Otherwise some word
// gave several lines (or none), and the same process is asked again with
// the sentinel after every word, which tells each word's lines apart; they
// are joined by spaces, as the one-shot path does for such a word. A word
// containing the sentinel, a busy pool, a process that cannot start or
// dies, or an answer that cannot be framed give an error matching
// errWorker, and the caller takes the one-shot path (which also reports a
// missing program); cancelling ctx kills the process and gives an error
// wrapping ctx.Err().
func (p *Phonemizer) runWarm(ctx context.Context, voice string, words []string) ([]string, error) {
	for _, w := range words {
		letters := strings.Map(func(r rune) rune {
			if unicode.IsLetter(r) {
				return unicode.ToLower(r)
			}
			return -1
		}, w)
		if strings.Contains(letters, sentinelWord) {
			return nil, fmt.Errorf("%w: a word contains the sentinel", errWorker)
		}
	}
	w, err := p.pool.get(ctx, voice)
	if err != nil || w == nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("g2p: espeak-ng: %w", ctx.Err())
		}
		return nil, fmt.Errorf("%w: no warm process (%v)", errWorker, err)
	}
	res, err := w.phonemize(ctx, words)
	if err != nil {
		p.pool.discard(w)
		if ctx.Err() != nil || !errors.Is(err, errWorker) {
			return nil, fmt.Errorf("g2p: espeak-ng: %w", ctxErr(ctx, err))
		}
		return nil, err
	}
	p.pool.put(w)
	return res, nil
}

// phonemize is runWarm's exchange with the process w.
func (w *worker) phonemize(ctx context.Context, words []string) ([]string, error) {
	timeout := warmRequestTimeout + time.Duration(len(words))*warmPerWordTimeout
	var in strings.Builder
	for _, s := range words {
		in.WriteString(s)
		in.WriteByte('\n')
	}
	in.WriteString(sentinelWord + "\n")
	var lines []string
	err := w.roundTrip(ctx, in.String(), timeout, func(line string) (bool, error) {
		line = strings.TrimSuffix(line, "\n")
		if line == w.sentinel {
			return true, nil
		}
		if len(lines) > 4*len(words)+16 {
			return false, fmt.Errorf("%w: espeak-ng -v %s gave far more lines than words", errWorker, w.key)
		}
		lines = append(lines, line)
		return false, nil
	})
	if err != nil {
		return nil, err
	}
	if len(lines) == len(words) {
		for i := range lines {
			lines[i] = strings.TrimSpace(lines[i])
		}
		return lines, nil
	}
	in.Reset()
	for _, s := range words {
		in.WriteString(s)
		in.WriteString("\n" + sentinelWord + "\n")
	}
	res := make([]string, 0, len(words))
	var cur []string
	err = w.roundTrip(ctx, in.String(), 2*timeout, func(line string) (bool, error) {
		line = strings.TrimSuffix(line, "\n")
		if line != w.sentinel {
			if len(cur) > 64 {
				return false, fmt.Errorf("%w: espeak-ng -v %s gave far more lines than words", errWorker, w.key)
			}
			cur = append(cur, line)
			return false, nil
		}
		if len(cur) == 1 {
			res = append(res, strings.TrimSpace(cur[0]))
		} else {
			res = append(res, strings.Join(strings.Fields(strings.Join(cur, "\n")), " "))
		}
		cur = cur[:0]
		return len(res) == len(words), nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// ctxErr prefers ctx's error to err once ctx is done.
func ctxErr(ctx context.Context, err error) error {
	if e := ctx.Err(); e != nil {
		return e
	}
	return err
}

// prewarm starts a warm process for voice unless one is idle already (see
// [G2P.Prewarm]). A pool without room or disabled is not an error; a
// process that cannot start is reported as the one-shot path would.
func (p *Phonemizer) prewarm(ctx context.Context, voice string) error {
	if p.pool == nil {
		return nil
	}
	w, err := p.pool.get(ctx, voice)
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("g2p: espeak-ng: %w", ctx.Err())
		}
		_, err = p.exec(ctx, voice, sentinelWord+"\n") // the one-shot error: ErrNoEspeak, a bad voice
		return err
	}
	if w != nil {
		p.pool.put(w)
	}
	return nil
}
