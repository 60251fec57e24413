package align

import (
	"bytes"
	"context"
	"math"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sottolabs/sotto"
)

// TestLongAudio measures a long alignment: the shared English recordings
// concatenated to SOTTO_ALIGN_LONG_MINUTES minutes (with their transcripts
// concatenated the same way), on the path SOTTO_ALIGN_PATH ("whole_audio",
// "streaming" or "" for the default choice). It reports wall and CPU
// real-time factors and the peak resident memory of the alignment (VmHWM,
// reset once the model and samples are loaded). It is skipped unless the
// variable is set; see docs/bench/align-search.md.
func TestLongAudio(t *testing.T) {
	minutes, _ := strconv.ParseFloat(os.Getenv("SOTTO_ALIGN_LONG_MINUTES"), 64)
	if minutes <= 0 {
		t.Skip("set SOTTO_ALIGN_LONG_MINUTES to run the long-audio measurement")
	}
	l := openTestBackend(t)
	switch p := os.Getenv("SOTTO_ALIGN_PATH"); p {
	case PathWholeAudio:
		l.knobs.streamSeconds = 1e9
	case PathStreaming:
		l.knobs.streamSeconds = 1
	case "":
	default:
		t.Fatalf("SOTTO_ALIGN_PATH=%q; want whole_audio, streaming or empty", p)
	}
	var parts [][]float32
	var texts []string
	total := 0
	for _, n := range longNames {
		a, tx := speech(t, n)
		parts, texts = append(parts, a.Samples), append(texts, tx)
		total += len(a.Samples)
	}
	repeat := int(minutes*60*sotto.SampleRate)/total + 1
	samples := make([]float32, 0, repeat*total)
	var text strings.Builder
	for range repeat {
		for i, p := range parts {
			samples = append(samples, p...)
			text.WriteString(texts[i])
			text.WriteByte(' ')
		}
	}
	a := sotto.Audio{Samples: samples}
	parts = nil
	var path string
	var stats *searchOut
	l.knobs.observe = func(p string, out *searchOut) { path, stats = p, out }
	resetHWM(t)
	var ru0, ru1 syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
	start := time.Now()
	res, err := l.Align(context.Background(), a, text.String(), Options{Language: "en", TextNormalization: DefaultTextNormalization})
	wall := time.Since(start)
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
	if err != nil {
		t.Fatal(err)
	}
	cpu := time.Duration(ru1.Utime.Nano()+ru1.Stime.Nano()-ru0.Utime.Nano()-ru0.Stime.Nano()) * time.Nanosecond
	secs := a.Seconds()
	t.Logf("%.1f s of audio (%d copies), %d words, path %s (%d chunks, %d retries; max active %d, peak back-pointers %d): wall %.1f s (RTF %.4f), CPU %.1f s (RTF %.4f), VmHWM %s",
		secs, repeat, len(words(res)), path, stats.chunks, stats.retries, stats.stats.MaxActive, stats.stats.PeakBackpointers,
		wall.Seconds(), wall.Seconds()/secs, cpu.Seconds(), cpu.Seconds()/secs, status(t, "VmHWM"))
	if os.Getenv("SOTTO_ALIGN_COMPARE") == "" {
		return
	}
	// The same alignment on the other path, word boundaries compared.
	if path == PathStreaming {
		l.knobs.streamSeconds = 1e9
	} else {
		l.knobs.streamSeconds = 1
	}
	other, err := l.Align(context.Background(), a, text.String(), Options{Language: "en", TextNormalization: DefaultTextNormalization})
	if err != nil {
		t.Fatal(err)
	}
	w1, w2 := words(res), words(other)
	if len(w1) != len(w2) {
		t.Fatalf("%d words on one path, %d on the other", len(w1), len(w2))
	}
	within := [3]int{}
	for i := range w1 {
		for _, d := range []float64{w1[i].Start - w2[i].Start, w1[i].End - w2[i].End} {
			for k, lim := range []float64{0.01, 0.02, 0.05} {
				if math.Abs(d) <= lim+1e-9 {
					within[k]++
				}
			}
		}
	}
	nb := float64(2 * len(w1))
	t.Logf("paths agree: %.1f%% of %d boundaries within 10 ms, %.1f%% within 20 ms, %.1f%% within 50 ms",
		100*float64(within[0])/nb, int(nb), 100*float64(within[1])/nb, 100*float64(within[2])/nb)
}

// resetHWM resets the peak resident set of the process.
func resetHWM(t *testing.T) {
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		t.Logf("cannot reset VmHWM: %v", err)
	}
}

// status returns one field of /proc/self/status.
func status(t *testing.T, key string) string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "?"
	}
	for _, line := range bytes.Split(b, []byte("\n")) {
		if k, v, ok := bytes.Cut(line, []byte(":")); ok && string(k) == key {
			return strings.TrimSpace(string(v))
		}
	}
	return "?"
}

// BenchmarkAlign measures a whole alignment through the backend (features,
// lexicon, search and word confidences) of the 11 s JFK recording.
func BenchmarkAlign(b *testing.B) {
	l := openTestBackend(b)
	a, text := speech(b, "en_jfk")
	ctx := context.Background()
	for _, strict := range []bool{false, true} {
		name := "default"
		if strict {
			name = "strict_ends" // without the garbage model
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(a.Samples) * 4))
			for b.Loop() {
				if _, err := l.Align(ctx, a, text, Options{Language: "en", TextNormalization: DefaultTextNormalization, StrictEnds: strict}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(b.Elapsed().Seconds()/float64(b.N)/a.Seconds(), "RTF")
		})
	}
}
