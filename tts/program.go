package tts

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/sottolabs/sotto"
)

// The engines here (flite, espeak-ng) run as programs, one process per
// sentence, and write a WAV file to standard output. espeak-ng is GPL-3:
// running it as a program keeps it out of Sotto's own binary.

// argText returns text fit to be passed to an engine as a command-line
// argument: an argument cannot hold a NUL byte (the program did not start,
// and the request failed as an internal error), and no ASCII control
// character has anything to speak, so each of them (tab, newline and
// carriage return aside) becomes a space. The length is unchanged: byte
// offsets into text still hold.
func argText(text string) string {
	i := strings.IndexFunc(text, isControl)
	if i < 0 {
		return text
	}
	b := []byte(text)
	for ; i < len(b); i++ {
		if isControl(rune(b[i])) {
			b[i] = ' '
		}
	}
	return string(b)
}

// isControl reports whether r is an ASCII control character other than
// tab, newline and carriage return.
func isControl(r rune) bool {
	return (r < 0x20 && r != '\t' && r != '\n' && r != '\r') || r == 0x7f
}

// runWAV runs name with args and returns the mono 16-bit PCM WAV it writes
// to standard output as samples. Cancelling ctx kills the process.
func runWAV(ctx context.Context, name string, args []string) (Chunk, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := runProgram(ctx, cmd); err != nil {
		return Chunk{}, err
	}
	return wavChunk(name, out.Bytes())
}

// wavFD is the path under which a program run by runWAVSide writes its WAV
// file: the pipe runWAVSide passes as the child's descriptor 3.
const wavFD = "/dev/fd/3"

// runWAVSide runs name with args, which must make it write its WAV file to
// wavFD, and returns the samples and what the program printed on standard
// output (flite's segment timings). Cancelling ctx kills the process.
func runWAVSide(ctx context.Context, name string, args []string) (Chunk, string, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return Chunk{}, "", fmt.Errorf("tts: %s: %w", name, err)
	}
	defer r.Close()
	cmd := exec.CommandContext(ctx, name, args...)
	var text bytes.Buffer
	cmd.Stdout = &text
	cmd.ExtraFiles = []*os.File{w}
	wav := make(chan []byte, 1)
	go func() {
		b, _ := io.ReadAll(r)
		wav <- b
	}()
	err = runProgram(ctx, cmd, w)
	b := <-wav
	if err != nil {
		return Chunk{}, "", err
	}
	c, err := wavChunk(name, b)
	return c, text.String(), err
}

// runProgram runs cmd, turning a failure into an error with the start of
// its standard error. Files in closeAfterStart (the child's ends of pipes)
// are closed once the child has them.
func runProgram(ctx context.Context, cmd *exec.Cmd, closeAfterStart ...*os.File) error {
	name := filepath.Base(cmd.Path)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Start()
	for _, f := range closeAfterStart {
		f.Close()
	}
	if err == nil {
		err = cmd.Wait()
	}
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("tts: %s: %w", name, ctx.Err())
		}
		msg := strings.TrimSpace(stderr.String())
		if len(msg) > 300 {
			msg = msg[:300]
		}
		return fmt.Errorf("tts: %s failed: %w: %s", name, err, msg)
	}
	return nil
}

func wavChunk(name string, b []byte) (Chunk, error) {
	s, rate, err := parsePCMWAV(b)
	if err != nil {
		return Chunk{}, fmt.Errorf("tts: %s: %w", name, err)
	}
	return Chunk{Samples: s, Rate: rate}, nil
}

// errShortWAV and friends describe output an engine should never write.
var errShortWAV = errors.New("output is not a WAV file")

// parsePCMWAV reads a mono 16-bit PCM RIFF/WAVE file. A data chunk whose
// declared size runs past the end (the placeholder sizes streaming writers
// such as espeak-ng --stdout leave) is read to the end of b; an odd final
// byte is dropped.
func parsePCMWAV(b []byte) ([]float32, int, error) {
	le := binary.LittleEndian
	if len(b) < 12 || string(b[0:4]) != "RIFF" || string(b[8:12]) != "WAVE" {
		return nil, 0, errShortWAV
	}
	rate, fmtSeen := 0, false
	p := 12
	for p+8 <= len(b) {
		id, size := string(b[p:p+4]), int64(le.Uint32(b[p+4:p+8]))
		body := b[p+8:]
		switch id {
		case "fmt ":
			if size < 16 || len(body) < 16 {
				return nil, 0, errors.New("wav: fmt chunk too short")
			}
			tag, ch, bits := le.Uint16(body[0:]), le.Uint16(body[2:]), le.Uint16(body[14:])
			if tag != 1 || ch != 1 || bits != 16 {
				return nil, 0, fmt.Errorf("wav: format %d, %d channels, %d bits; want PCM, mono, 16 bits", tag, ch, bits)
			}
			rate = int(le.Uint32(body[4:]))
			if rate < 1000 || rate > 384000 {
				return nil, 0, fmt.Errorf("wav: sample rate %d Hz out of range", rate)
			}
			fmtSeen = true
		case "data":
			if !fmtSeen {
				return nil, 0, errors.New("wav: data before fmt")
			}
			if size > int64(len(body)) {
				size = int64(len(body))
			}
			n := int(size) / 2
			s := make([]float32, n)
			for i := range n {
				s[i] = float32(int16(le.Uint16(body[2*i:]))) / 32768
			}
			return s, rate, nil
		}
		if size > int64(len(body)) {
			break
		}
		p += 8 + int(size) + int(size&1)
	}
	return nil, 0, errors.New("wav: no data chunk")
}

// findProgram resolves an engine program for a driver's Open: the path
// named by the catalog option "program", else name on $PATH.
func findProgram(cfg map[string]string, name string) (string, error) {
	if p := cfg["program"]; p != "" {
		name = p
	}
	p, err := exec.LookPath(name)
	if err != nil {
		return "", sotto.Invalid("model_not_downloaded", "model",
			"tts: the program %q is not installed (Debian package %s; make deps installs it)", name, name)
	}
	return p, nil
}
