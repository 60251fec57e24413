// Command sphinx-align force-aligns WAV files to their transcripts with the
// pure-Go Sphinx engine and reports speed and peak memory. It is a
// measurement tool for docs/bench/engine.md, not a user-facing command.
//
//	sphinx-align [-repeat N] [-ctm] a.wav a.txt [b.wav b.txt ...]
//
// The files (16 kHz mono 16-bit WAV) are concatenated, N times over, into
// one utterance whose transcript is the concatenated texts.
package main

import (
	"context"
	"encoding/binary"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strings"
	"syscall"
	"time"

	"github.com/sottolabs/sotto/internal/sphinx"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "sphinx-align:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("sphinx-align", flag.ContinueOnError)
	repeat := fs.Int("repeat", 1, "concatenate the inputs this many times")
	ctm := fs.Bool("ctm", false, "print word timings as CTM")
	beam := fs.Float64("beam", 0, "beam in nats (0 = default)")
	memprofile := fs.String("memprofile", "", "write an allocation profile of the alignment to this file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 || fs.NArg()%2 != 0 {
		return fmt.Errorf("want pairs of WAV and transcript files")
	}
	t0 := time.Now()
	m, err := sphinx.Load(ctx, sphinx.Config{})
	if err != nil {
		return err
	}
	load := time.Since(t0)
	var words []string
	var files [][]int16
	total := 0
	for i := 0; i < fs.NArg(); i += 2 {
		s, err := readWAV(fs.Arg(i))
		if err != nil {
			return err
		}
		files = append(files, s)
		total += len(s)
		txt, err := os.ReadFile(fs.Arg(i + 1))
		if err != nil {
			return err
		}
		words = append(words, normalize(string(txt))...)
	}
	n := len(words)
	for range *repeat - 1 {
		words = append(words, words[:n]...)
	}
	x := make([]float32, 0, total**repeat)
	for range *repeat {
		for _, s := range files {
			for _, v := range s {
				x = append(x, float32(v)/32768)
			}
		}
	}
	files = nil
	debug.FreeOSMemory()
	base := rss("VmRSS:")
	// Reset the peak-RSS mark so VmHWM below covers the alignment only
	// (Linux: writing 5 to clear_refs resets VmHWM to the current RSS).
	hwmReset := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil
	if *memprofile != "" {
		runtime.MemProfileRate = 4096
	}
	dur := float64(len(x)) / 16000
	t1, c1 := time.Now(), cpuTime()
	a, err := m.Align(ctx, x, words, sphinx.AlignOptions{Beam: *beam})
	if err != nil {
		return err
	}
	el, cpu := time.Since(t1).Seconds(), cpuTime()-c1
	if *memprofile != "" {
		f, err := os.Create(*memprofile)
		if err != nil {
			return err
		}
		runtime.GC()
		if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
			return err
		}
		f.Close()
	}
	if *ctm {
		for _, w := range a.Words {
			fmt.Fprintf(stdout, "utt 1 %.2f %.2f %s\n", a.Seconds(w.Start), a.Seconds(w.End-w.Start), w.Label)
		}
	}
	fmt.Fprintf(stdout, "audio %.1f s, %d words, load %.2f s, align wall %.3f s (rtf %.4f), cpu %.3f s (rtf %.4f), RSS before align %s (model + %.1f MB of float32 samples), peak RSS %s (reset before align: %v)\n",
		dur, len(words), load.Seconds(), el, el/dur, cpu, cpu/dur, base, float64(4*len(x))/1e6, rss("VmHWM:"), hwmReset)
	return nil
}

func normalize(s string) []string {
	var out []string
	for _, w := range strings.Fields(strings.ToLower(s)) {
		w = strings.Trim(w, ".,!?;:\"()")
		if w != "" {
			out = append(out, w)
		}
	}
	return out
}

// cpuTime returns the process's user+system CPU seconds.
func cpuTime() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// rss reads a memory line (VmHWM: peak, VmRSS: current) from
// /proc/self/status (Linux).
func rss(key string) string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "n/a"
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, key) {
			return strings.Join(strings.Fields(l[len(key):]), " ")
		}
	}
	return "n/a"
}

// readWAV decodes a 16 kHz mono 16-bit PCM WAV by walking its RIFF chunks.
func readWAV(path string) ([]int16, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(b) < 12 || string(b[:4]) != "RIFF" || string(b[8:12]) != "WAVE" {
		return nil, fmt.Errorf("%s: not a RIFF/WAVE file", path)
	}
	ok := false
	for off := 12; off+8 <= len(b); {
		id := string(b[off : off+4])
		n := min(int(binary.LittleEndian.Uint32(b[off+4:])), len(b)-off-8)
		body := b[off+8 : off+8+n]
		switch id {
		case "fmt ":
			ok = n >= 16 && binary.LittleEndian.Uint16(body[2:]) == 1 &&
				binary.LittleEndian.Uint32(body[4:]) == 16000 && binary.LittleEndian.Uint16(body[14:]) == 16
		case "data":
			if !ok {
				return nil, fmt.Errorf("%s: want 16 kHz mono 16-bit PCM", path)
			}
			s := make([]int16, n/2)
			for i := range s {
				s[i] = int16(binary.LittleEndian.Uint16(body[2*i:]))
			}
			return s, nil
		}
		off += 8 + n + n&1
	}
	return nil, fmt.Errorf("%s: no data chunk", path)
}
